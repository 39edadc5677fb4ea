/* Signed subtraction overflow below INT_MIN.
 *
 * Paths: `a < 0` forks; on the negative side `a - 10` forks an error path
 * for a < INT_MIN + 10: 2 normal + 1 error = 3. */
#include "symtest.h"

int main(void) {
  int a = symtest_int("a");
  if (a < 0) {
    int d = a - 10; // EXPECT-ERROR: overflow
    return d & 1;
  }
  return 0;
}
// EXPECT-PATHS: 3
