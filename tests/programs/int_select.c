/* select: at -O0 clang emits `select` for a conditional expression whose
 * arms are constants (no branch, so no fork), and a branch + phi when an
 * arm is not a constant.  min/max/clamp written both ways must agree.
 *
 * Paths: `a < 0 ? -1 : (a > 0 ? 1 : 0)`: the outer ?: has a non-constant
 * arm, so it branches on a < 0 (the inner one is a select feeding the phi);
 * the two ?: in `flags` are selects (no fork); `a < b ? a : b` branches.
 * 2 * 2 = 4 paths.  The comparisons inside the assertions do not branch. */
#include "symtest.h"

int main(void) {
  int a = symtest_int("a");
  int b = symtest_int("b");
  int sign = a < 0 ? -1 : (a > 0 ? 1 : 0);   /* branch, select, phi */
  unsigned flags = (b & 1 ? 4u : 0u) | (b < 0 ? 2u : 0u); /* two selects */
  int min = a < b ? a : b;                   /* branch + phi */

  symtest_assert(sign * sign == (a != 0));
  symtest_assert((sign < 0) == (a < 0));
  symtest_assert(((flags & 4) != 0) == ((b & 1) != 0));
  symtest_assert(((flags & 2) != 0) == (b < 0));
  symtest_assert(min <= a);
  symtest_assert(min <= b);
  symtest_assert((min == a) | (min == b));
  return (int)flags;
}
// EXPECT-PATHS: 4
// EXPECT-NO-ERRORS
