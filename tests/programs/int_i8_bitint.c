/* i8 instructions: unsigned _BitInt(8) is not promoted to int, so clang
 * emits add/sub/mul/udiv/urem/shl/lshr/and/or/xor/icmp on i8 directly.
 * Every result is cross-checked against the same computation done in 32-bit
 * arithmetic and truncated; the assertions can never fail.
 *
 * Divisors are `b | 1` and shift amounts `b & 7`, so the division and shift
 * checks cannot fail either.  Paths: one fork, `sum < a` (carry out) = 2. */
#include "symtest.h"

typedef unsigned _BitInt(8) u8;

int main(void) {
  u8 a, b;
  symtest_make_symbolic(&a, sizeof a, "a");
  symtest_make_symbolic(&b, sizeof b, "b");
  unsigned wa = (unsigned)a, wb = (unsigned)b;

  u8 sum = a + b;
  u8 diff = a - b;
  u8 prod = a * b;
  u8 quot = a / (b | 1);
  u8 rem = a % (b | 1);
  u8 shl = a << (b & 7);
  u8 shr = a >> (b & 7);
  u8 and_ = a & b, or_ = a | b, xor_ = a ^ b;

  symtest_assert(sum == ((wa + wb) & 0xff));
  symtest_assert(diff == ((wa - wb) & 0xff));
  symtest_assert(prod == ((wa * wb) & 0xff));
  symtest_assert(quot == wa / (wb | 1));
  symtest_assert(rem == wa % (wb | 1));
  symtest_assert(shl == ((wa << (wb & 7)) & 0xff));
  symtest_assert(shr == wa >> (wb & 7));
  symtest_assert(and_ == (wa & wb));
  symtest_assert(or_ == (wa | wb));
  symtest_assert(xor_ == (wa ^ wb));

  if (sum < a) /* unsigned i8 compare: the addition wrapped */
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
