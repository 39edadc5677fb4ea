/* double -> float narrowing: values below FLT_TRUE_MIN/2 become 0, above
 * FLT_MAX become infinity; a "non-zero stays non-zero" check fails.
 *
 * Paths: d == 0 (1), NaN (1), non-zero staying non-zero (1), non-zero
 * becoming zero (1 error). */
#include "symtest.h"

int main(void) {
  double d;
  symtest_make_symbolic(&d, sizeof d, "d");
  if (!(d != 0.0) || d != d)
    return 1;
  float f = (float)d;
  symtest_assert(f != 0.0f); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 4
