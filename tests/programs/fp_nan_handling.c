/* NaN handling: a validation that only rejects out-of-range values lets
 * NaN through (every ordered comparison with NaN is false), and the mean
 * computed from it is NaN; the check written with `!(x < lo)` catches it.
 *
 * Paths: x < 0 (1), x > 100 (1), NaN passing the range check and failing
 * the assert (1 error), valid (1). */
#include "symtest.h"

static double mean(double a, double b) { return (a + b) / 2.0; }

int main(void) {
  double x;
  symtest_make_symbolic(&x, sizeof x, "x");
  if (x < 0.0)
    return 1;
  if (x > 100.0)
    return 2;
  double m = mean(x, 50.0);
  symtest_assert(m == m); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 4
