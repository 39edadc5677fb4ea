/* free() of a pointer into the middle of a heap block.
 *
 * Paths: the pointer passed to free is p + off; off == 0 frees the block
 * (normal path), off in {1, 2} is an invalid free (error path): 2. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  char *p = malloc(16);
  if (!p)
    return 2;
  int off = symtest_range(0, 3, "off");
  free(p + off); // EXPECT-ERROR: free
  return 0;
}
// EXPECT-PATHS: 2
