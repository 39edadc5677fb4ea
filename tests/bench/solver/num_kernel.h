/* The kernel of the floating-point cost benchmark (`cargo xtask bench fp`):
 * included by fp_kernel.c (NUM = double), int_kernel.c (long),
 * fp32_kernel.c (float), int32_kernel.c (int) and fp80_kernel.c (long
 * double), so all explore the same control structure over the same number
 * of symbolic inputs, and the queries differ only in their theory. */
#include "symtest.h"

int main(void) {
  NUM x[4];
  symtest_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 4; i++) {
    symtest_assume(x[i] > -1000);
    symtest_assume(x[i] < 1000);
  }
  int score = 0;
  for (int i = 0; i < 4; i++) {
    NUM v = x[i] * 3 + 7;
    if (v > 100)
      score += 1;
    else if (v < -100)
      score -= 1;
    if (v + x[(i + 1) % 4] > 500)
      score += 2;
  }
  return score;
}
