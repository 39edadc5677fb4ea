/* `llvm.bitreverse` (`__builtin_bitreverse*`) on symbolic values, checked
 * against a shift loop, and `llvm.threadlocal.address` (`_Thread_local`
 * globals; symtest runs one thread).
 *
 * The assertions hold for every input (no error path) and the only fork is
 * the final `if`: 2 paths. */
#include <stdint.h>
#include "symtest.h"

static _Thread_local unsigned calls;

static uint32_t reverse_loop(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++)
    r |= ((x >> i) & 1u) << (31 - i);
  calls++;
  return r;
}

int main(void) {
  uint32_t x = (uint32_t)symtest_int("x");
  uint8_t b = (uint8_t)symtest_int("b");
  symtest_assert(__builtin_bitreverse32(x) == reverse_loop(x));
  symtest_assert(__builtin_bitreverse8(b) == (uint8_t)(reverse_loop(b) >> 24));
  symtest_assert(__builtin_bitreverse16(0x0001) == 0x8000);
  symtest_assert(calls == 2);
  if (__builtin_bitreverse32(x) == 1u)
    return 1; /* x == 0x80000000 */
  return 0;
}
// EXPECT-NO-ERRORS
// EXPECT-PATHS: 2
