/* A comparison that reads past the end of an unterminated buffer, with
 * --summarize-comparisons.
 *
 * `s` holds 4 symbolic bytes and no NUL: when they are "abcd", strcmp with
 * "abcdefgh" reads s[4], out of bounds. The comparison cannot be computed
 * as one expression (its scan may leave the object), so the library's loop
 * runs and the engine checks its reads: one `ptr` error, in the library's
 * strcmp.c with this program's call below it on the stack (the marker
 * syntax names only program lines, hence the count). The summarised
 * comparison before it (s is terminated within its object) adds no error.
 *
 * Paths: "ab" (1); s[3] == 0 otherwise, where the summarised comparison
 * cannot be 0 (1); s[3] != 0, where the library's loop stops at one of 4
 * positions or reads s[4] (5): 7.
 *
 * Natively the overflowing read is in the C library, which the sanitizer
 * intercepts as a strcmp of an unterminated string on the stack. */
// EXPECT-STAT: errors 1
// EXPECT-PATHS: 7
// OPTIONS: --summarize-comparisons
#include <string.h>
#include "symtest.h"

int main(void) {
  char s[4];
  symtest_make_symbolic(s, sizeof s, "s");
  if (s[3] == 0 && strcmp(s, "ab") == 0)
    return 2;
  if (strcmp(s, "abcdefgh") == 0)
    return 1;
  return 0;
}
