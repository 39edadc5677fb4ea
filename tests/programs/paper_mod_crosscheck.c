/* The paper's Figure 11: crosscheck a trivial modulo against one optimized
 * for powers of two.  The assertion never fails (the two are equivalent
 * for every y != 0); along the way y == 0 is a division by zero in mod().
 *
 * Paths: mod(x, y) is evaluated first; its % forks the y == 0 error path.
 * mod_opt then forks on the power-of-two test (y != 0 now, so its own %
 * cannot fail); the assert holds on both sides (no fork).
 * 1 error + 2 normal = 3. */
#include <assert.h>
#include "symtest.h"

static unsigned mod_opt(unsigned x, unsigned y) {
  if ((y & -y) == y) /* power of two? */
    return x & (y - 1);
  else
    return x % y;
}

static unsigned mod(unsigned x, unsigned y) {
  return x % y; // EXPECT-ERROR: div
}

int main(void) {
  unsigned x, y;
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&y, sizeof y, "y");
  assert(mod(x, y) == mod_opt(x, y));
  return 0;
}
// EXPECT-PATHS: 3
