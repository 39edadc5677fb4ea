/* free() of a global array on one input.
 *
 * Paths: `if (k > 5)` forks; one side frees a global: 1 normal + 1 error. */
#include <stdlib.h>
#include "symtest.h"

int table[8];

int main(void) {
  int k = symtest_range(0, 8, "k");
  int *p = malloc(sizeof *p);
  table[k] = 1;
  if (k > 5) {
    free(p);
    p = table;
  }
  free(p); // EXPECT-ERROR: free
  return 0;
}
// EXPECT-PATHS: 2
