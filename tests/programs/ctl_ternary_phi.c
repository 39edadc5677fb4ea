/* phi nodes from conditional expressions whose arms are not constants
 * (clang emits a branch per ?: and a phi in the join block), including a
 * nested ?: and a ?: whose value is a pointer.
 *
 * x, y, z are independent bytes.
 *   m1 = x > y ? x : y          forks on x > y                 (2)
 *   m2 = m1 > z ? m1 : z        forks on m1 > z in both        (2)
 *   p  = (x & 1) ? &x : &y      forks on the low bit of x      (2)
 * All 8 combinations are feasible: 8 paths. */
#include "symtest.h"

int main(void) {
  unsigned char x, y, z;
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&y, sizeof y, "y");
  symtest_make_symbolic(&z, sizeof z, "z");
  unsigned char m1 = x > y ? x : y;
  unsigned char m2 = m1 > z ? m1 : z;
  unsigned char *p = (x & 1) ? &x : &y;
  symtest_assert(m2 >= x);
  symtest_assert(m2 >= y);
  symtest_assert(m2 >= z);
  symtest_assert((*p == x) | (*p == y));
  return m2 > 200; /* a comparison value, not a branch */
}
// EXPECT-PATHS: 8
// EXPECT-NO-ERRORS
