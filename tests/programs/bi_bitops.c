/* Bit-manipulation builtins: bswap16/32/64, popcount (32 and 64 bit),
 * clz and ctz (on values that cannot be zero, where they are undefined),
 * parity.  Each is cross-checked against a straight-line formula.
 *
 * Paths: the loops have constant trip counts and no branch depends on x;
 * `pc > 16` forks: 2 paths. */
#include <stdint.h>
#include "symtest.h"

int main(void) {
  uint32_t x;
  symtest_make_symbolic(&x, sizeof x, "x");
  uint64_t y = ((uint64_t)x << 32) | (uint32_t)~x;

  uint32_t bs = __builtin_bswap32(x);
  symtest_assert(__builtin_bswap32(bs) == x);
  symtest_assert((bs & 0xff) == (x >> 24));
  symtest_assert(((bs >> 8) & 0xff) == ((x >> 16) & 0xff));
  symtest_assert((uint16_t)__builtin_bswap16((uint16_t)x) ==
                 (uint16_t)(((x & 0xff) << 8) | ((x >> 8) & 0xff)));
  symtest_assert(__builtin_bswap64(y) ==
                 (((uint64_t)__builtin_bswap32((uint32_t)y) << 32) | __builtin_bswap32(x)));

  int pc = __builtin_popcount(x);
  int manual = 0;
  for (int i = 0; i < 32; i++)
    manual += (int)((x >> i) & 1);
  symtest_assert(pc == manual);
  symtest_assert(__builtin_popcountll(y) == 32);
  symtest_assert(__builtin_parity(x) == (pc & 1));

  uint32_t nz = x | 1u;           /* never zero */
  uint32_t top = x | 0x80000000u; /* never zero */
  int lz = __builtin_clz(nz);
  int tz = __builtin_ctz(top);
  symtest_assert(lz >= 0);
  symtest_assert(lz <= 31);
  symtest_assert((nz >> (31 - lz)) == 1);
  symtest_assert(__builtin_clz(top) == 0);
  symtest_assert(((top >> tz) & 1) == 1);
  symtest_assert((top & ((1u << tz) - 1)) == 0);

  if (pc > 16)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
