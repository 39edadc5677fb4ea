/* A user-defined error reported with symtest_report_error.
 *
 * Paths: `v > 90` forks: 1 normal + 1 error = 2. */
#include "symtest.h"

int main(void) {
  int v = symtest_range(0, 100, "v");
  if (v > 90)
    symtest_report_error(__FILE__, __LINE__, "value too large", "user.err"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 2
