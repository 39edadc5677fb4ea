/* Signed left shift: -fsanitize=shift checks the shift amount first and,
 * only when it is in range, whether the shifted value is representable
 * (no negative operand, no bits shifted into or past the sign bit).
 *
 * Paths: the amount test forks: n >= 32 goes straight to the error
 * handler (error 1); with n < 32 the value test forks again: x < 0 or
 * x << n too large is an error (error 2), otherwise the path ends
 * normally.  2 errors (same line) + 1 normal = 3. */
#include "symtest.h"

int main(void) {
  int x = symtest_range(-4, 4, "x");
  int n = symtest_range(0, 40, "n");
  int r = x << n; // EXPECT-ERROR: overflow
  return r & 1;
}
// EXPECT-PATHS: 3
