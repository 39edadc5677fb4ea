/* Overshift and division by zero, compiled as KLEE users compile (no UBSan
 * flags): the engine checks both itself, as KLEE does by default.
 *
 * Paths: the shift check forks (x >= 32 is an error: 1 error path); the
 * division check forks (y == 0: 1 error path); then 1 normal path = 3. */
#include "klee/klee.h"

int main(void) {
  unsigned x = klee_range(0, 64, "x");
  int y = klee_int("y");
  unsigned v = 1u << x; // EXPECT-ERROR: overflow
  int q = 1000 / y; // EXPECT-ERROR: div
  return (int)(v & 1) + q;
}
// EXPECT-PATHS: 3
