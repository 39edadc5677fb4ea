/* Out-of-bounds read through a symbolic pointer that may point into any of
 * three heap buffers (sizes 4, 5, 6) with a symbolic offset in [0, 6).
 *
 * Paths: the read resolves to each buffer in bounds (3 paths, each fixing
 * sel) plus one error path for the out-of-bounds remainder (sel == 0 with
 * off >= 4, sel == 1 with off == 5).  The if-chain is then decided:
 * 3 normal + 1 error = 4. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  char *bufs[3];
  for (int k = 0; k < 3; k++) {
    bufs[k] = malloc(4 + k);
    if (!bufs[k])
      return 2;
    for (int m = 0; m < 4 + k; m++)
      bufs[k][m] = (char)('a' + k);
  }
  int sel = symtest_range(0, 3, "sel");
  int off = symtest_range(0, 6, "off");
  char ch = bufs[sel][off]; // EXPECT-ERROR: ptr
  int r;
  if (ch == 'a')
    r = 0;
  else if (ch == 'b')
    r = 1;
  else
    r = 2;
  for (int k = 0; k < 3; k++)
    free(bufs[k]);
  return r;
}
// EXPECT-PATHS: 4
