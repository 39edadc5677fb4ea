/* Use after free: a read through an alias of a freed heap block.
 *
 * Paths: `if (c)` forks; with c != 0 the block is freed and the read
 * fails (error path); with c == 0 the read succeeds and the block is freed
 * afterwards: 1 normal + 1 error = 2. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  int *p = malloc(4 * sizeof *p);
  if (!p)
    return 2;
  int *alias = p;
  int c = symtest_range(0, 2, "c");
  p[0] = 1;
  if (c)
    free(p);
  int v = alias[0]; // EXPECT-ERROR: ptr
  if (!c)
    free(p);
  return v;
}
// EXPECT-PATHS: 2
