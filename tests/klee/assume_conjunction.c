/* An assumption is the harness's, not a bug of the code under test: where it
 * cannot hold (each `&&` operand forks, and the false sides reach
 * klee_assume(0)) the path ends without a test and without an error.
 *
 * Paths: the first two `&&` operands fork (the last one is the value): 2
 * false sides reach klee_assume(0) and are pruned; on the true side x > 5
 * then x < 3 cannot hold: pruned too. 3 paths, 3 pruned, no test. */
// EXPECT-STAT: assumptions_pruned 3
// EXPECT-STAT: tests 0
#include <assert.h>
#include "klee/klee.h"

int main(void) {
  char in[4];
  klee_make_symbolic(in, sizeof in, "in");
  klee_assume(in[0] == 'B' && in[1] == 'Z' && in[2] == 'h');
  int x = klee_int("x");
  klee_assume(x > 5);
  klee_assume(x < 3);
  assert(0);
  return 0;
}
// EXPECT-PATHS: 3
// EXPECT-NO-ERRORS
