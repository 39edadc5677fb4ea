/* sdiv/srem/udiv/urem at 8 (promoted), 16 (promoted), 32 and 64 bits with
 * C's truncating semantics: the quotient rounds toward zero and the
 * remainder has the sign of the dividend.  Divisors are never zero and
 * INT_MIN / -1 is impossible, so no check can fail.
 *
 * n in [-20, 20), d in [1, 5) (then negated when `neg`):
 * Paths: `q < 0` forks; the remainder test `r != 0` forks on both sides
 * (e.g. -7/2 and -6/2, 7/2 and 6/2); `neg` only feeds arithmetic: 4 paths.
 * (No && / || / ?: on symbolic values here: each would be a branch.) */
#include "symtest.h"

int main(void) {
  int n = symtest_range(-20, 20, "n");
  int d = symtest_range(1, 5, "d");
  int neg = symtest_range(0, 2, "neg");
  int dv = d * (1 - 2 * neg); /* branch-free sign choice */

  int q = n / dv;
  int r = n % dv;
  long long q64 = (long long)n * 1000000007LL / dv;
  long long r64 = (long long)n * 1000000007LL % dv;
  unsigned uq = (unsigned)(n + 20) / (unsigned)d;
  unsigned ur = (unsigned)(n + 20) % (unsigned)d;
  unsigned long long uq64 = (unsigned long long)(n + 20) / (unsigned)d;
  signed char c = (signed char)n;
  short s = (short)(n * 100);
  int cq = c / (signed char)dv;  /* i8 operands promoted to i32 */
  int sr = s % (short)dv;        /* i16 operands promoted to i32 */

  symtest_assert(q * dv + r == n);
  symtest_assert((r == 0) | ((r < 0) == (n < 0)));
  symtest_assert((r < d) & (r > -d));
  symtest_assert(q64 * dv + r64 == (long long)n * 1000000007LL);
  symtest_assert(uq * (unsigned)d + ur == (unsigned)(n + 20));
  symtest_assert(uq64 == uq);
  symtest_assert(cq == q);
  symtest_assert(sr == (n * 100) % dv);

  int res = 0;
  if (q < 0)
    res |= 1;
  if (r != 0)
    res |= 2;
  return res;
}
// EXPECT-PATHS: 4
// EXPECT-NO-ERRORS
