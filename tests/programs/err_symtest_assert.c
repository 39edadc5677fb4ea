/* A failing symtest_assert (a function, not a macro: the engine itself
 * forks the failing and the passing inputs).
 *
 * Paths: 1 error (v % 7 == 3) + 1 normal = 2. */
#include "symtest.h"

int main(void) {
  unsigned char c;
  symtest_make_symbolic(&c, sizeof c, "c");
  unsigned v = c;
  symtest_assert(v % 7 != 3); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 2
