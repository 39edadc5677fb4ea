/* shl/lshr/ashr on i32 and i64 with symbolic shift amounts kept in range
 * (masked), so the shift checks compiled into the program cannot fail.
 * Only unsigned values are shifted left (a signed left shift has an extra
 * check on the shifted value).
 *
 * Paths: `(u << k) == 0` forks (u is 0 after the shift or not); then
 * `sar < 0` is decided by the sign of x; x is independent: 2 * 2 = 4. */
#include "symtest.h"

int main(void) {
  int x;
  unsigned char amount;
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&amount, sizeof amount, "amount");
  unsigned u = (unsigned)x;
  int k = amount & 31;
  int k64 = amount & 63;
  unsigned long long w = (unsigned long long)u | ((unsigned long long)u << 32);

  unsigned shl = u << k;
  unsigned shr = u >> k;
  int sar = x >> k;
  unsigned long long shl64 = w << k64;
  unsigned long long shr64 = w >> k64;
  long long sar64 = (long long)x >> k64;

  symtest_assert((shr << k) == (u & ~((1u << k) - 1)));
  symtest_assert((shl >> k) == (u & (0xffffffffu >> k)));
  symtest_assert((sar < 0) == (x < 0));
  symtest_assert((shl64 >> k64) == (w & (~0ull >> k64)));
  symtest_assert((shr64 << k64) == (w & (~0ull << k64)));
  symtest_assert(sar64 == ((long long)sar >> (k64 - k))); /* k64 - k is 0 or 32 */

  int r = 0;
  if (shl == 0)
    r |= 1;
  if (sar < 0)
    r |= 2;
  return r;
}
// EXPECT-PATHS: 4
// EXPECT-NO-ERRORS
