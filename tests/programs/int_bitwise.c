/* and/or/xor/not at 8, 16, 32 and 64 bits: De Morgan, xor cancellation,
 * masks, and an i1 xor from `!`.  All assertions are identities.
 *
 * Paths: `(a & b) == b` (b's bits are a subset of a's) forks: 2 paths. */
#include <stdint.h>
#include "symtest.h"

int main(void) {
  uint32_t a, b;
  symtest_make_symbolic(&a, sizeof a, "a");
  symtest_make_symbolic(&b, sizeof b, "b");
  uint8_t a8 = (uint8_t)a, b8 = (uint8_t)b;
  uint16_t a16 = (uint16_t)a, b16 = (uint16_t)b;
  uint64_t a64 = ((uint64_t)a << 32) | b, b64 = ((uint64_t)b << 32) | a;

  symtest_assert((uint32_t)~(a & b) == (uint32_t)(~a | ~b));
  symtest_assert((uint32_t)~(a | b) == (uint32_t)(~a & ~b));
  symtest_assert(((a ^ b) ^ b) == a);
  symtest_assert((a | b) - (a & b) == (a ^ b));
  symtest_assert((uint8_t)(a8 ^ b8) == (uint8_t)((a ^ b) & 0xff));
  symtest_assert((uint16_t)(a16 & b16) == (uint16_t)(a & b));
  symtest_assert((uint16_t)~a16 == (uint16_t)(0xffffu - a16));
  symtest_assert((a64 ^ b64) == (((uint64_t)(a ^ b) << 32) | (a ^ b)));
  symtest_assert((~a64 & a64) == 0);
  symtest_assert(!a == (a == 0));

  if ((a & b) == b)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
