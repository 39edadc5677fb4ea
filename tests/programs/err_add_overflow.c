/* Signed addition overflow: a is unconstrained, b in [0, 1000).
 *
 * Paths: the add forks an error path for a + b > INT_MAX; the other side
 * returns a comparison (no branch): 1 normal + 1 error = 2. */
#include "symtest.h"

int main(void) {
  int a = symtest_int("a");
  int b = symtest_range(0, 1000, "b");
  int s = a + b; // EXPECT-ERROR: overflow
  return s > 0;
}
// EXPECT-PATHS: 2
