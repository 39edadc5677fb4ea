/* With --summarize-comparisons, the C library's comparisons against
 * constants fork once, in the caller.
 *
 * `strcmp`, `strncmp` and `memcmp` of a symbolic buffer with a constant are
 * computed as one expression (the library's value: the difference of the
 * bytes where its loop stops), so each `if` below forks once and no path is
 * left inside the library per position of the first difference.
 *
 * Paths: "help" (1), "ver..." (2), above "m" (3), below "ab" (4) and the
 * rest (0): 5.
 * Running the library's loops instead (the default)
 * leaves one path per position where the scans can stop (more than 5).
 *
 * The native replay checks the signs (only they are portable: the
 * sanitizers' `strcmp` returns -1, 0 or 1, musl's the bytes' difference):
 * each test's exit code comes from the native library's results on the
 * test's bytes. */
// EXPECT-PATHS: 5
// EXPECT-NO-ERRORS
// OPTIONS: --summarize-comparisons
#include <string.h>
#include "symtest.h"

int main(void) {
  char s[6];
  symtest_make_symbolic(s, sizeof s, "s");
  s[5] = 0;
  if (strcmp(s, "help") == 0)
    return 1;
  if (strncmp(s, "ver", 3) == 0)
    return 2;
  if (strcmp(s, "m") > 0)
    return 3;
  if (memcmp(s, "ab", 2) < 0)
    return 4;
  return 0;
}
