/* floor, ceil, trunc, round and rint (clang's llvm.floor/.ceil/.trunc/
 * .round/.rint): find x where round() and rint() disagree (a tie: x.5 with
 * an even integer part), and where floor and trunc disagree (negative
 * non-integers).
 *
 * The assert on negative non-integers holds (no false report).
 *
 * Paths: x NaN or <= -1e6 (1), >= 1e6 (1), round != rint (1 error),
 * floor != trunc (1), floor == trunc (1). */
#include "symtest.h"
#include <math.h>

int main(void) {
  double x;
  symtest_make_symbolic(&x, sizeof x, "x");
  if (!(x > -1e6))
    return 1;
  if (!(x < 1e6))
    return 1;
  int neg = floor(x) != trunc(x);
  if (round(x) != rint(x))
    symtest_report_error(__FILE__, __LINE__, "round != rint", "user"); // EXPECT-ERROR: user
  if (neg)
    symtest_assert(x < 0.0 && ceil(x) == trunc(x));
  return 0;
}
// EXPECT-PATHS: 5
