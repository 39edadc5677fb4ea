/* free() of the address of a local variable on one input.
 *
 * Paths: `if (which)` forks; one side frees the heap block (fine), the
 * other the local: 1 normal + 1 error = 2. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  int local = 3;
  int *heap = malloc(sizeof *heap);
  int which = symtest_range(0, 2, "which");
  int *p = heap;
  if (which)
    p = &local;
  free(p); // EXPECT-ERROR: free
  return local;
}
// EXPECT-PATHS: 2
