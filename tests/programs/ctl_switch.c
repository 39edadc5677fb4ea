/* switch on a symbolic value: several cases sharing a body, a fallthrough,
 * a sparse case, and default.
 *
 * Paths: one per distinct destination block of the switch instruction
 * (as in KLEE, case values with the same destination are one fork target):
 * {0,1} -> A, 2 -> B (falls into C), 3 -> C, 100 -> D, default -> E.
 * 5 paths. */
#include "symtest.h"

int main(void) {
  int v = symtest_int("v");
  int r = 0;
  switch (v) {
  case 0:
  case 1:
    r = 10;
    break;
  case 2:
    r = 20;
    /* fall through */
  case 3:
    r += 30;
    break;
  case 100:
    r = 100;
    break;
  default:
    r = -1;
    break;
  }
  symtest_assert(r != 0);
  return r == -1; /* a comparison value, not a branch */
}
// EXPECT-PATHS: 5
// EXPECT-NO-ERRORS
