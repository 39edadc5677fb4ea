/* i64: sext from i32, mul/add with constants wider than 32 bits, signed and
 * unsigned compares, ashr/and on i64.
 *
 * big = x * 2^32 + y with x in [-3, 3) and y in [0, 4):
 *   big < 0            iff x < 0                      (fork)
 *   u > 0xffffffff     always when x < 0; iff x >= 1 when x >= 0
 *   (big >> 32) == -2  iff x == -2 (only possible when x < 0)
 *   (u & 3) == 3       iff y == 3                     (fork everywhere)
 * x < 0: {x == -2, x != -2} x {y == 3, y != 3} = 4 paths;
 * x >= 0: {x == 0, x >= 1} x {y == 3, y != 3} = 4 paths.  Total 8. */
#include "symtest.h"

int main(void) {
  long long x = symtest_range(-3, 3, "x");
  long long y = symtest_range(0, 4, "y");
  long long big = x * 0x100000000LL + y;
  unsigned long long u = (unsigned long long)big;
  int r = 0;
  if (big < 0)
    r |= 1;
  if (u > 0xffffffffULL)
    r |= 2;
  if ((big >> 32) == -2)
    r |= 4;
  if ((u & 3) == 3)
    r |= 8;
  symtest_assert((big - y) / 0x100000000LL == x);
  symtest_assert((u >> 32) == (unsigned long long)(x & 0xffffffff));
  return r;
}
// EXPECT-PATHS: 8
// EXPECT-NO-ERRORS
