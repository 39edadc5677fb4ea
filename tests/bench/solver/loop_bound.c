/* A loop over a symbolic bound, as in small verification tasks: every
 * iteration forks on `i <= n`, and each path checks a closed form of the
 * sum. Each query bounds one value (`n`); on the path `n == k` the check
 * is decided by `n` alone. */
#include "symtest.h"

int main(void) {
  int n = symtest_int("n");
  symtest_assume(n >= 0);
  symtest_assume(n < 1000);
  long sum = 0, prod = 1;
  for (int i = 1; i <= n; i++) {
    sum += i;
    prod = (prod * 3) % 1000003;
  }
  symtest_assert(2 * sum == (long)n * (n + 1));
  return (int)(prod & 1);
}
