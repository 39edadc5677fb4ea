/* Loops with a symbolic trip count: the loop condition forks once per
 * possible exit iteration; a do/while with an early exit; phi nodes come
 * from the && in the loop condition.
 *
 * n in [0, 5): the for loop exits after 0..4 iterations (5 paths).  The
 * while loop then runs on the known value of `sum` (no fork): 5 paths.
 * Inside, `i < n && i < 3`: the second test only forks when n > 3, where
 * it decides the exit instead of `i < n`; the number of paths is still one
 * per n value.  Total 5. */
#include "symtest.h"

int main(void) {
  int n = symtest_range(0, 5, "n");
  int sum = 0;
  for (int i = 0; i < n; i++)
    sum += i;
  int capped = 0;
  for (int i = 0; i < n && i < 3; i++)
    capped++;
  int steps = 0;
  do {
    sum -= 2;
    steps++;
  } while (sum > 0);
  symtest_assert(capped == (n < 3 ? n : 3));
  symtest_assert(steps >= 1);
  return steps;
}
// EXPECT-PATHS: 5
// EXPECT-NO-ERRORS
