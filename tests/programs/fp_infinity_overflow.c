/* Float overflow to infinity: scaling a finite reading by 1e30f overflows
 * for large readings, and the result then no longer compares below the
 * limit in the expected way; infinity minus infinity is NaN.
 *
 * Paths: x not finite (1: inf, -inf or NaN fail `fabsf(x) <= FLT_MAX`),
 * scaled finite (1), scaled infinite: the assert that the difference is a
 * number fails (1 error). */
#include "symtest.h"
#include <math.h>

int main(void) {
  float x;
  symtest_make_symbolic(&x, sizeof x, "x");
  if (!(fabsf(x) <= 3.4028234663852886e38f))
    return 1;
  float big = x * 1e30f;
  if (big - big == 0.0f)
    return 0;
  symtest_assert(big - big == 0.0f); // EXPECT-ERROR: assert
  return 2;
}
// EXPECT-PATHS: 3
