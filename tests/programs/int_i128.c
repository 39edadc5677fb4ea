/* i128: unsigned and signed __int128 add/sub/mul/udiv/urem/sdiv/srem,
 * shifts across the 64-bit halves, compares and truncation to i64.
 *
 * lo and hi are small ranges, so no signed check can fail.
 * Paths: `v > 2^64` (true iff hi >= 1 and not hi == 1, lo == 0) forks, then
 * `(v & 1) == 0` forks on lo on both sides: 2 * 2 = 4 paths. */
#include "symtest.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

int main(void) {
  int lo = symtest_range(0, 8, "lo");
  int hi = symtest_range(0, 4, "hi");
  u128 v = ((u128)(unsigned)hi << 64) | (unsigned)lo;   /* zext, shl, or */
  s128 sv = -(s128)v;                                   /* sub from 0 */

  u128 sum = v + v;
  u128 prod = v * 3;
  u128 q = v / 3;
  u128 r = v % 3;
  s128 sq = sv / 3;
  s128 sr = sv % 3;
  unsigned long long top = (unsigned long long)(v >> 64); /* lshr, trunc */
  long long stop = (long long)(sv >> 64);                 /* ashr, trunc */

  symtest_assert(sum - v == v);
  symtest_assert(prod == v + v + v);
  symtest_assert(q * 3 + r == v);
  symtest_assert(r < 3);
  symtest_assert(sq * 3 + sr == sv);
  symtest_assert(sr <= 0);
  symtest_assert(top == (unsigned long long)hi);
  symtest_assert(stop == -(long long)hi - (lo != 0));

  int res = 0;
  if (v > ((u128)1 << 64))
    res |= 1;
  if ((v & 1) == 0)
    res |= 2;
  return res;
}
// EXPECT-PATHS: 4
// EXPECT-NO-ERRORS
