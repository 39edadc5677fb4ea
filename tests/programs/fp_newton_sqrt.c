/* A libm-like routine run on symbolic input: three Newton steps for the
 * square root of x in [1, 4) from the guess (1 + x) / 2, checked against
 * the hardware square root (llvm.sqrt through __builtin_sqrt) with a
 * tolerance that is too tight near x = 1 and x = 4.
 *
 * Paths: x NaN or < 1 (1), >= 4 (1), within tolerance (1), outside
 * (1 error). */
#include "symtest.h"

static double newton_sqrt(double x) {
  double g = (1.0 + x) / 2.0;
  for (int i = 0; i < 3; i++)
    g = 0.5 * (g + x / g);
  return g;
}

int main(void) {
  float xf;
  symtest_make_symbolic(&xf, sizeof xf, "x");
  double x = xf;
  if (!(x >= 1.0))
    return 1;
  if (!(x < 4.0))
    return 1;
  double err = newton_sqrt(x) - __builtin_elementwise_sqrt(x);
  symtest_assert(err < 1e-12); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 4
