/* symtest_assume on a floating-point comparison of a symbolic double
 * constrains it (it is not an "invalid assumption"), and the branches after
 * it see only values in range: no error.
 *
 * Paths: x in [1, 2) (1), [2, 10] (1). */
#include "symtest.h"

int main(void) {
  double x;
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_assume(x >= 1.0);
  symtest_assume(x <= 10.0);
  symtest_assert(!(x != x));
  if (x < 2.0)
    return 1;
  symtest_assert(x * x >= 4.0);
  return 0;
}
// EXPECT-NO-ERRORS
// EXPECT-PATHS: 2
