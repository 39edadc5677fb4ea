/* Write into a const global through a cast-away-const pointer.
 *
 * Paths: `i == 2` forks; that side writes into the constant table:
 * 1 normal + 1 error = 2. */
#include "symtest.h"

const int limits[3] = {10, 20, 30};

int main(void) {
  int i = symtest_range(0, 3, "i");
  int *p = (int *)&limits[i];
  if (i == 2)
    *p = 0; // EXPECT-ERROR: readonly
  return limits[0];
}
// EXPECT-PATHS: 2
