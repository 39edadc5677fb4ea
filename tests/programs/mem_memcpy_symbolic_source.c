/* memcpy and memmove from a symbolic pointer that may point into either of
 * two globals: the source resolves to both, and each state copies from its
 * own object (the destination is resolved and written in every state the
 * source resolved in, not only in the first). Lengths above a load's go
 * chunk by chunk, the small one as one value.
 *
 * Paths: `src` resolves to `a` or `b`: 2 (the assertions always hold; the
 * if-chain at the end separates the same cases natively). */
#include <string.h>
#include "symtest.h"

static char a[600] = "AAAAAAA";
static char b[600] = "BBBBBBB";

int main(void) {
  int i = symtest_range(0, 2, "i");
  char *p[2] = {a, b};
  char *src = p[i];
  char small[8] = {0};
  static char large[600];
  memcpy(small, src, 8);
  memmove(large, src, sizeof large);
  char want = i ? 'B' : 'A';
  symtest_assert(small[0] == want && small[6] == want && small[7] == 0);
  symtest_assert(large[0] == want && large[6] == want && large[599] == 0);
  if (i)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
