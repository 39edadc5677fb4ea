/* memset and memcpy whose length runs past an object: an out-of-bounds
 * `ptr` error at the call, found with the whole length before any byte is
 * written, however large the length: a symbolic one (concretized), the
 * 2,172,649,480 bytes of a user report (whose fill value wrapped a value's
 * 32-bit width and made the engine panic), one past the source only, and
 * one that wraps the address space. Natively, AddressSanitizer checks the
 * ranges of the same calls (__asan_memset/__asan_memcpy) before a byte is
 * written, so every error test replays as a `ptr` error.
 *
 * Paths: `sel` in 0..6 splits at the if-chain; sel 0 fills and copies in
 * bounds and exits normally, sel 1..5 each end in one error: 6. */
#include <stdlib.h>
#include <string.h>
#include "symtest.h"

int main(void) {
  char *buf = malloc(16);
  char *src = malloc(64);
  if (!buf || !src)
    return 2;
  memset(src, 'a', 64);
  int sel = symtest_range(0, 6, "sel");
  size_t n = (size_t)symtest_range(17, 24, "n"); /* always past `buf` */
  if (sel == 0) {
    memset(buf, 'x', n - 1);
    memcpy(buf + 8, src, n - 9);
    symtest_assert(buf[0] == 'x' && buf[15] == 'a');
  } else if (sel == 1) {
    memset(buf, 'x', n); // EXPECT-ERROR: ptr
  } else if (sel == 2) {
    memset(buf + 8, 0, 2172649480UL); // EXPECT-ERROR: ptr
  } else if (sel == 3) {
    memcpy(buf, src, n); // EXPECT-ERROR: ptr
  } else if (sel == 4) {
    memcpy(buf, src + 56, n - 8); // EXPECT-ERROR: ptr
  } else {
    memset(buf + 1, 0, (size_t)-1); // EXPECT-ERROR: ptr
  }
  free(buf);
  free(src);
  return 0;
}
// EXPECT-PATHS: 6
