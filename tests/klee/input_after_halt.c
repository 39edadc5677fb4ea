/* Input made after the point where a run halts: a path stopped before its
 * second klee_int (`--max-instructions 20`, in the project test
 * `fidelity::input_made_after_a_halt_joins_the_test`) is run to its end on
 * its test's inputs, and the input it makes on the way (`y`, pinned by an
 * assumption) joins its test, so a native run finds every object it asks for
 * and ends as the engine says. (The completion was abandoned at the new
 * input and the test lacked `y`: natively the vector ran out, exit 125, a
 * disagreement; so did gawk's test of a path halted while the POSIX model
 * made its files.)
 *
 * Paths, explored fully: `x > 10` forks, the assumption pins `y`: 2. */
#include <stdio.h>
#include "klee/klee.h"

int main(void) {
  int x = klee_int("x");
  if (x > 10)
    puts("big");
  else
    puts("small");
  int y = klee_int("y");
  klee_assume(y == 7);
  printf("y is %d\n", y);
  return x > 10 ? y : 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
