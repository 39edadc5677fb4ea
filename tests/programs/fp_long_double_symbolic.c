/* A symbolic long double (x86_fp80, 64-bit significand; `--fp full`): the
 * solver works in the (15, 64) format, the x87's. There is an x with x * 3 == 1 (the
 * rounded third), and one just above 1 that double cannot hold.
 *
 * Paths: x NaN or < 0 (1), > 2 (1), x * 3 == 1 (1 error), x <= 1 (1),
 * 1 < x with (double)x == 1 (1 error), with (double)x != 1 (1). */
#include "symtest.h"
// OPTIONS: --fp full

int main(void) {
  long double x;
  symtest_make_symbolic(&x, 10, "x");
  if (!(x >= 0.0L && x <= 2.0L))
    return 1;
  if (x * 3.0L == 1.0L)
    symtest_report_error(__FILE__, __LINE__, "a third", "user"); // EXPECT-ERROR: user
  else if (x > 1.0L && (double)x == 1.0)
    symtest_report_error(__FILE__, __LINE__, "beyond double", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 6
