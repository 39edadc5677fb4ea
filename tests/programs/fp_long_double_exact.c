/* long double (x86_fp80) is computed concretely, exactly as the x87 does
 * (64-bit significand, round to nearest even): values that double cannot
 * tell apart stay apart, the bytes of 0.1L are the x87's, and 64-bit
 * integers convert exactly. Every assert holds natively; computing through
 * double would fail the first.
 *
 * Paths: k < 2 (1), k >= 2 (1). */
#include "symtest.h"

int main(void) {
  int k = symtest_range(0, 4, "k");
  long double tiny = 1.0L + 0x1p-60L;
  symtest_assert(tiny != 1.0L);
  symtest_assert(tiny - 1.0L == 0x1p-60L);
  symtest_assert((double)tiny == 1.0);
  long double third = 1.0L / 3.0L;
  symtest_assert(third * 3.0L == 1.0L);
  symtest_assert((double)third == 1.0 / 3.0);
  unsigned long long big = (1ull << 63) + 1;
  long double b = big;
  symtest_assert((unsigned long long)b == big);
  symtest_assert((double)b == 0x1p63);
  union { long double l; unsigned char c[16]; } u = {0};
  u.l = 0.1L;
  symtest_assert(u.c[0] == 0xcd && u.c[1] == 0xcc && u.c[7] == 0xcc);
  symtest_assert(u.c[8] == 0xfb && u.c[9] == 0x3f);
  long double h = 0x1p62L + 1.5L;
  symtest_assert(__builtin_floorl(h) == 0x1p62L + 1.0L);
  symtest_assert(__builtin_roundl(h) == 0x1p62L + 2.0L);
  if (k < 2)
    return 1;
  return 0;
}
// EXPECT-NO-ERRORS
// EXPECT-PATHS: 2
