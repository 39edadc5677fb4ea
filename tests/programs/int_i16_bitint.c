/* i16 instructions on signed and unsigned _BitInt(16): sdiv/srem/ashr,
 * udiv/urem/lshr, sext/zext/trunc between i8, i16 and i32, signed and
 * unsigned compares.  Results are cross-checked in 32-bit arithmetic.
 *
 * Inputs are an i16 `x` and an i8 `y`.  The divisor `(y & 15) + 1` is in
 * [1, 16] (no division by zero, no INT16_MIN / -1), shifts are by `y & 15`
 * (< 16) and only unsigned values are shifted left: no error is possible.
 * Paths: `x < 0` forks (2), then `ux > 0x8000` forks on both sides?  No:
 * it is implied by x < 0 except for x == INT16_MIN (ux == 0x8000), so it
 * forks only on the negative side: 3 paths in total. */
#include "symtest.h"

typedef signed _BitInt(16) s16;
typedef unsigned _BitInt(16) u16;
typedef signed _BitInt(8) s8;

int main(void) {
  s16 x;
  s8 y;
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&y, sizeof y, "y");
  int wx = (int)x; /* sext i16 -> i32 */
  int wy = (int)y; /* sext i8 -> i32 */
  u16 ux = (u16)x;
  s16 d = (s16)((y & 15) + 1); /* sext i8 -> i16, and, add */

  s16 q = x / d;                    /* sdiv i16 */
  s16 r = x % d;                    /* srem i16 */
  u16 uq = ux / (u16)d;             /* udiv i16 */
  u16 ur = ux % (u16)d;             /* urem i16 */
  s16 sar = x >> (y & 15);          /* ashr i16 */
  u16 shr = ux >> (y & 15);         /* lshr i16 */
  u16 shl = ux << (y & 15);         /* shl i16 */
  s8 low = (s8)x;                   /* trunc i16 -> i8 */
  u16 widened = (u16)(unsigned _BitInt(8))y; /* zext i8 -> i16 */

  int wd = (wy & 15) + 1;
  symtest_assert(q == wx / wd);
  symtest_assert(r == wx % wd);
  symtest_assert(uq == (wx & 0xffff) / wd);
  symtest_assert(ur == (wx & 0xffff) % wd);
  symtest_assert(sar == wx >> (wy & 15));
  symtest_assert(shr == (wx & 0xffff) >> (wy & 15));
  symtest_assert(shl == (((unsigned)wx << (wy & 15)) & 0xffff));
  symtest_assert(low == (signed char)(wx & 0xff));
  symtest_assert(widened == (wy & 0xff));

  if (x < 0) {              /* icmp slt i16 */
    if (ux > (u16)0x8000)   /* icmp ugt i16 */
      return 2;
    return 1;
  }
  return 0;
}
// EXPECT-PATHS: 3
// EXPECT-NO-ERRORS
