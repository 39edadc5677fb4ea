/* Casts: sext/zext/trunc between i8, i16, i32 and i64 (char, short, int,
 * long long, signed and unsigned), ptrtoint/inttoptr round trip.
 * All checks are identities that always hold.
 *
 * Paths: `sc < 0` forks on the sign bit of the input byte: 2 paths. */
#include <stdint.h>
#include "symtest.h"

int main(void) {
  unsigned char byte;
  symtest_make_symbolic(&byte, sizeof byte, "byte");
  signed char sc = (signed char)byte;     /* same bits */
  int si = sc;                            /* sext i8 -> i32 */
  int ui = byte;                          /* zext i8 -> i32 */
  short ss = sc;                          /* sext i8 -> i16 */
  unsigned short us = byte;               /* zext i8 -> i16 */
  long long sl = si;                      /* sext i32 -> i64 */
  unsigned long long ul = (unsigned)si;   /* zext i32 -> i64 */
  unsigned char back = (unsigned char)sl; /* trunc i64 -> i8 */
  short from_long = (short)sl;            /* trunc i64 -> i16 */
  int mixed = (int)(us | ((unsigned)ss << 16)); /* zext i16, shl, or */

  symtest_assert(back == byte);
  symtest_assert(from_long == ss);
  symtest_assert(si == ui - (int)((ui & 0x80u) << 1));
  symtest_assert(((unsigned long long)sl >> 32) == (si < 0 ? 0xffffffffu : 0u));
  symtest_assert((ul >> 32) == 0);
  symtest_assert((unsigned)ul == (unsigned)si);
  symtest_assert((mixed & 0xffff) == byte);

  char buf[4];
  uintptr_t addr = (uintptr_t)&buf[1];    /* ptrtoint */
  char *p = (char *)(addr - 1);           /* inttoptr */
  symtest_assert(p == buf);

  if (sc < 0)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
