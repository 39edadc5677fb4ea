/* An allocation above 4 GiB succeeds under a limit above it (the default,
 * 1 GiB, would refuse it), as it does natively: the replay gives the run's
 * limit to AddressSanitizer. Only the bytes touched cost memory.
 *
 * Paths: no fork (the symbolic offset into the big object is concretized):
 * 1 normal path. */
#include <assert.h>
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  unsigned char i = (unsigned char)klee_int("i");
  char *p = malloc((1UL << 32) + 1);
  assert(p);
  p[0] = 1;
  p[1UL << 32] = 2;
  p[(1UL << 31) + i] = 3;
  assert(p[1UL << 32] == 2);
  free(p);
  return 0;
}
// OPTIONS: --max-alloc-size 5368709120
// EXPECT-PATHS: 1
// EXPECT-NO-ERRORS
