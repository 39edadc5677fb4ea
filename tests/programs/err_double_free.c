/* Double free of a heap block on one input.
 *
 * Paths: `mode == 2` forks; that side frees the block a second time: 1
 * normal + 1 error = 2. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  char *p = malloc(16);
  int mode = symtest_range(0, 3, "mode");
  free(p);
  if (mode == 2)
    free(p); // EXPECT-ERROR: free
  return 0;
}
// EXPECT-PATHS: 2
