/* Recursion with a symbolic depth: a recursive factorial and a mutually
 * recursive even/odd pair.
 *
 * n in [0, 6): fact(n) forks on `n <= 1` at every level until the base
 * case, so each n value is one path except that n == 0 and n == 1 share
 * the first base case test (n <= 1 true): {0,1}, 2, 3, 4, 5 = 5 paths.
 * is_even(n) then separates 0 from 1 (`n == 0 ? ...` branches); every
 * other n is already known.  6 paths. */
#include "symtest.h"

static unsigned fact(unsigned n) {
  if (n <= 1)
    return 1;
  return n * fact(n - 1);
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

int main(void) {
  unsigned n = (unsigned)symtest_range(0, 6, "n");
  unsigned f = fact(n);
  int even = is_even(n);
  symtest_assert(f >= 1);
  symtest_assert(f % 2 == (n <= 1));
  symtest_assert(even == ((n & 1) == 0));
  return (int)f;
}
// EXPECT-PATHS: 6
// EXPECT-NO-ERRORS
