/* Floating-point addition is not associative: (a + b) + c == a + (b + c)
 * fails for some float inputs (rounding, cancellation).
 *
 * Paths: a NaN input (3: one per `&&` operand), equal (1), differ
 * (1 error). */
#include "symtest.h"

int main(void) {
  float a, b, c;
  symtest_make_symbolic(&a, sizeof a, "a");
  symtest_make_symbolic(&b, sizeof b, "b");
  symtest_make_symbolic(&c, sizeof c, "c");
  if (!(a == a && b == b && c == c))
    return 1;
  symtest_assert((a + b) + c == a + (b + c)); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 5
