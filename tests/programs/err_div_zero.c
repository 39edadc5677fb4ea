/* Division by zero (unsigned, so the only possible error is y == 0).
 *
 * Paths: `x > 100` forks; on that side the division forks an error path
 * for y == 0 and continues with y != 0: 2 normal + 1 error = 3. */
#include "symtest.h"

int main(void) {
  unsigned x, y;
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&y, sizeof y, "y");
  if (x > 100)
    return x / y == 1; // EXPECT-ERROR: div
  return 0;
}
// EXPECT-PATHS: 3
