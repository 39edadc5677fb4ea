/* unsigned <-> double: every 32-bit unsigned value converts exactly to
 * double and back, and halving in double matches the integer shift after
 * truncation (both asserts hold for all 2^32 values: no false report). A
 * 64-bit value does not survive the round trip above 2^53 (values above
 * 2^64 - 2049 would round to 2^64, which does not fit: excluded).
 *
 * Paths: excluded (1), survives (1), does not (1 error). */
#include "symtest.h"
#include <stdint.h>

int main(void) {
  uint32_t u;
  uint64_t big;
  symtest_make_symbolic(&u, sizeof u, "u");
  symtest_make_symbolic(&big, sizeof big, "big");
  double d = (double)u;
  symtest_assert((uint32_t)d == u);
  symtest_assert((uint32_t)(d / 2.0) == u >> 1);
  double b = (double)big;
  if (big > 0xFFFFFFFFFFFFF7FFull)
    return 1;
  symtest_assert((uint64_t)b == big); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 3
