/* Classification of a symbolic float through isnan/isinf/isfinite/
 * isnormal/fpclassify and __builtin_isfpclass (llvm.is.fpclass): a handler
 * that forgets subnormals. Each class is one path.
 *
 * Paths: NaN (1), infinite (1), zero (1), normal (1), subnormal (1 error). */
#include "symtest.h"
#include <math.h>

int main(void) {
  float x;
  symtest_make_symbolic(&x, sizeof x, "x");
  if (isnan(x))
    return 1;
  if (isinf(x))
    return 2;
  if (x == 0.0f)
    return 3;
  if (__builtin_isfpclass(x, 0x108)) /* negative or positive normal */
    return 4;
  symtest_assert(!__builtin_isfpclass(x, 0x090)); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 5
