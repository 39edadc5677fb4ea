/* Overflow-checking builtins: __builtin_add/sub/mul_overflow on int,
 * unsigned and long long (llvm.*.with.overflow intrinsics, defined
 * behaviour: no error), cross-checked against wider arithmetic.
 *
 * Paths: `add_ovf` and `mul_ovf` each fork, and all four combinations are
 * feasible (INT_MAX + INT_MAX overflows both; INT_MAX + 1 only the add;
 * 65536 * 65536 only the mul; 0, 0 neither): 4 paths. */
#include "symtest.h"

int main(void) {
  int a = symtest_int("a");
  int b = symtest_int("b");
  int sum, diff, prod;
  unsigned usum;
  long long wide;
  int add_ovf = __builtin_add_overflow(a, b, &sum);
  int sub_ovf = __builtin_sub_overflow(a, b, &diff);
  int mul_ovf = __builtin_mul_overflow(a, b, &prod);
  int uadd_ovf = __builtin_add_overflow((unsigned)a, (unsigned)b, &usum);
  int wide_ovf = __builtin_mul_overflow((long long)a, (long long)b, &wide);

  symtest_assert(sum == (int)((unsigned)a + (unsigned)b));
  symtest_assert(add_ovf == ((long long)a + b != (long long)sum));
  symtest_assert(sub_ovf == ((long long)a - b != (long long)diff));
  symtest_assert(uadd_ovf == (usum < (unsigned)a));

  /* (Identities between 32- and 64-bit products are multiplier-equivalence
   * proofs, hard for any bit-blasting solver: not asserted here.) */
  (void)prod;
  (void)wide;
  (void)wide_ovf;
  int r = 0;
  if (add_ovf)
    r |= 1;
  if (mul_ovf)
    r |= 2;
  return r;
}
// EXPECT-PATHS: 4
// EXPECT-NO-ERRORS
