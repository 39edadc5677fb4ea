/* Remainder by zero (signed; the divisor is never -1, so INT_MIN % -1 is
 * not possible and the only error is m == 0).
 *
 * Paths: the % forks an error path for m == 0; the other side forks on
 * `r < 0` (a < 0 and not divisible, e.g. -5 % 2): 2 normal + 1 error. */
#include "symtest.h"

int main(void) {
  int a = symtest_range(-50, 50, "a");
  int m = symtest_range(0, 4, "m");
  int r = a % m; // EXPECT-ERROR: div
  if (r < 0)
    return 1;
  return 0;
}
// EXPECT-PATHS: 3
