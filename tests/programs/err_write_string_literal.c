/* Write into a string literal (read-only memory).
 *
 * Paths: `s[i] == 'l'` forks (i in {2, 3}); that side writes into the
 * literal, which fails on every input: 1 normal + 1 error = 2. */
#include "symtest.h"

int main(void) {
  char *s = "hello";
  int i = symtest_range(0, 5, "i");
  if (s[i] == 'l')
    s[i] = 'L'; // EXPECT-ERROR: readonly
  return s[0] != 'h';
}
// EXPECT-PATHS: 2
