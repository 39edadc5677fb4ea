/* memset, memcpy and memmove far longer than a load: several MiB on heap
 * and global objects, overlapping moves in both directions, a fill with a
 * symbolic byte, fills and copies at a symbolic offset, and a 512 MiB + 4 KiB
 * object filled and moved whole (more than 2^29 bytes: a value of 8 * n
 * bits no longer fits a 32-bit width; a user's memset of 2,172,649,480
 * bytes on such an object panicked the engine). Every byte read back is
 * the one the fill or copy put there.
 *
 * Paths: no branch on symbolic data and every assertion holds: 1. */
#include <stdlib.h>
#include <string.h>
#include "symtest.h"

#define MIB (1UL << 20)

static char global_buf[3 * MIB + 5];

int main(void) {
  unsigned char c;
  symtest_make_symbolic(&c, sizeof c, "c");
  int k = symtest_range(0, 8, "k");

  /* Concrete fills and a copy between objects. */
  memset(global_buf, 'g', sizeof global_buf);
  symtest_assert(global_buf[0] == 'g' && global_buf[sizeof global_buf - 1] == 'g');
  unsigned char *a = malloc(5 * MIB);
  if (!a)
    return 2;
  memset(a, 0x11, 5 * MIB);
  memcpy(global_buf + 1, a + 7, 3 * MIB);
  symtest_assert(global_buf[0] == 'g' && global_buf[1] == 0x11);
  symtest_assert(global_buf[3 * MIB] == 0x11 && global_buf[3 * MIB + 1] == 'g');

  /* Overlapping moves across many 64 KiB chunks, both directions. */
  memset(a, 1, MIB);
  memset(a + MIB, 2, MIB);
  memset(a + 2 * MIB, 3, MIB);
  memmove(a + 100, a, 3 * MIB); /* destination above: backward */
  symtest_assert(a[0] == 1 && a[99] == 1 && a[100 + MIB - 1] == 1);
  symtest_assert(a[100 + MIB] == 2 && a[100 + 3 * MIB - 1] == 3);
  memmove(a, a + 100, 3 * MIB); /* destination below: forward */
  symtest_assert(a[MIB - 1] == 1 && a[MIB] == 2 && a[3 * MIB - 1] == 3);
  symtest_assert(a[3 * MIB] == 3 && a[3 * MIB + 100] == 0x11);

  /* A symbolic byte, then copied: a value per byte. */
  memset(a, c, 100000);
  symtest_assert(a[0] == c && a[99999] == c && a[100000] == 1);
  memcpy(global_buf, a + 1, 100000);
  symtest_assert(global_buf[54321] == (char)c && global_buf[99998] == (char)c);
  symtest_assert(global_buf[99999] == 1 && global_buf[100000] == 0x11);

  /* At a symbolic offset, in one object. */
  unsigned char *s = calloc(4096, 1);
  if (!s)
    return 2;
  memset(s + k, 'q', 300);
  symtest_assert(s[k] == 'q' && s[k + 299] == 'q' && s[k + 300] == 0);
  memcpy(s + 2048, s + k, 300);
  symtest_assert(s[2048] == 'q' && s[2048 + 299] == 'q' && s[2048 + 300] == 0);
  s[k + 299] = 'e';
  memmove(s + k + 1, s + k, 300);
  symtest_assert(s[k + 1] == 'q' && s[k + 300] == 'e' && s[k + 301] == 0);

  /* Above 2^29 bytes. */
  size_t big_n = (1UL << 29) + 4096;
  char *big = malloc(big_n);
  if (!big)
    return 2;
  memset(big, 0, big_n);
  memset(big + (1UL << 29) - 10, 'z', 20);
  memmove(big + 4096, big, 1UL << 29);
  symtest_assert(big[4096 + (1UL << 29) - 10] == 'z' && big[(1UL << 29) - 10] == 0);
  symtest_assert(big[4096 + (1UL << 29) - 11] == 0 && big[big_n - 1] == 'z');
  free(big);
  free(s);
  free(a);
  return 0;
}
// EXPECT-PATHS: 1
// EXPECT-NO-ERRORS
