/* Two paths fail at the same line; with --emit-all-errors (KLEE's option)
 * both get a test, without it only the first.
 *
 * Paths: `x > 0` forks; each side's division by zero forks: 2 errors + 2
 * normal = 4. */
// OPTIONS: --emit-all-errors
// EXPECT-STAT: errors 2
#include "klee/klee.h"

int main(void) {
  int x = klee_int("x");
  int y = klee_int("y");
  if (x > 0)
    y = y + 1;
  return 100 / y; // EXPECT-ERROR: div
}
// EXPECT-PATHS: 4
