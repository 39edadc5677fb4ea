/* A symbolic index selecting one of several heap buffers of different sizes,
 * and a symbolic offset inside it (always in bounds).
 *
 * Paths: the read `p[off]` may hit any of the three buffers: the engine
 * forks once per buffer (3 paths); the write through the same pointer and
 * the if-chain are decided on each path.  3 paths. */
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
  int off = symtest_range(0, 4, "off");
  char *p = bufs[sel];
  char ch = p[off];
  p[off] = 'z';
  symtest_assert(bufs[sel][off] == 'z');
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
// EXPECT-PATHS: 3
// EXPECT-NO-ERRORS
