/* --exit-on-error: exploration stops after the first bug's test.
 *
 * Paths: depth-first search follows the false side of each branch first:
 * the path where x is neither 1 nor 2 exits, then x == 2 aborts and the run
 * stops; the x == 1 state is left unfinished (halted, an early path). */
// OPTIONS: --exit-on-error --search=dfs
// EXPECT-STAT: errors 1
// EXPECT-STAT: paths_early 1
#include "klee/klee.h"

int main(void) {
  int x = klee_int("x");
  if (x == 1)
    klee_abort();
  if (x == 2)
    klee_abort(); // EXPECT-ERROR: abort
  return 0;
}
// EXPECT-PATHS: 2
