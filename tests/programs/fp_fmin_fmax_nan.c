/* fmin/fmax (llvm.minnum/maxnum) ignore a NaN operand, so clamping with
 * them turns NaN into the bound, while a clamp written with comparisons
 * passes NaN through: the two disagree exactly for NaN input.
 *
 * Paths: x < 0 (1), x > 1 (1), x in [0, 1] (1), NaN: the clamps disagree
 * (1 error). */
#include "symtest.h"
#include <math.h>

static double clamp_cmp(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

int main(void) {
  double x;
  symtest_make_symbolic(&x, sizeof x, "x");
  double a = fmin(fmax(x, 0.0), 1.0);
  double b = clamp_cmp(x);
  symtest_assert(a == b); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 4
