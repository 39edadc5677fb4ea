/* Negative zero: -0.0 == 0.0, yet 1/x is -inf for it. A guard `x == 0.0`
 * maps zero to the positive branch, but the sign test through the
 * reciprocal sees -0 as negative.
 *
 * Paths: x non-zero (1), x == +0 (1), x == -0 (1 error). */
#include "symtest.h"

int main(void) {
  double x;
  symtest_make_symbolic(&x, sizeof x, "x");
  if (x != 0.0)
    return 1;
  double r = 1.0 / x;
  if (r < 0.0)
    symtest_report_error(__FILE__, __LINE__, "negative zero", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 3
