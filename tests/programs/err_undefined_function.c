/* A call to a function that is declared but defined nowhere: the engine
 * cannot execute it (KLEE: "failed external call").  This program cannot
 * be linked natively, so native replay cannot reproduce the error.
 *
 * Paths: `x == 4` forks: 1 normal + 1 error = 2. */
#include "symtest.h"

int compute_checksum_not_linked(int x); /* never defined */

int main(void) {
  int x = symtest_range(0, 10, "x");
  if (x == 4)
    return compute_checksum_not_linked(x); // EXPECT-ERROR: external
  return 0;
}
// EXPECT-PATHS: 2
