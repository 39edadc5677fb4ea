/* i32 add/sub/mul and signed compares (inputs in small ranges, so the
 * signed-overflow checks compiled into the program cannot fail).
 *
 * Paths: three independent-looking tests, and all 8 combinations are
 * feasible (e.g. a=3,b=-3 / a=2,b=-2 / a=-3,b=3 / a=0,b=0 / a=3,b=-4 /
 * a=3,b=-1 / a=-4,b=2 / a=1,b=1): 8 paths. */
#include "symtest.h"

int main(void) {
  int a = symtest_range(-4, 4, "a");
  int b = symtest_range(-4, 4, "b");
  int s = a + b;
  int d = a - b;
  int m = a * b;
  int r = 0;
  if (s == 0)
    r += 1;
  if (d > 3)
    r += 2;
  if (m < -6)
    r += 4;
  symtest_assert(s - b == a);
  symtest_assert(d + b == a);
  return r;
}
// EXPECT-PATHS: 8
// EXPECT-NO-ERRORS
