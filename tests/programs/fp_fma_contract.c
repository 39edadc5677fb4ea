/* fma(a, b, c) rounds once, a * b + c twice: for a = 1 + 2^-30 the
 * residual a*a - 1 differs in the last bits. The engine must find an
 * input where the fused and the unfused results differ.
 *
 * Paths: a NaN or <= 1 (1), >= 2 (1), equal (1), different (1 error). */
#include "symtest.h"
#include <math.h>

int main(void) {
  float a;
  symtest_make_symbolic(&a, sizeof a, "a");
  if (!(a > 1.0f && a < 2.0f))
    return 1;
  volatile float p = a * a;
  float unfused = p - 1.0f;
  float fused = __builtin_fmaf(a, a, -1.0f);
  symtest_assert(fused == unfused); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 4
