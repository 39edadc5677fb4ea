/* free of a pointer that may be the start of a heap object or inside it:
 * the interior cases are one `free` error, the valid case runs on.
 *
 * Paths: 1 error (k in 1..3) + 1 normal (k == 0) = 2. */
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  char *a = malloc(4);
  int k = klee_range(0, 4, "k");
  free(a + k); // EXPECT-ERROR: free
  return 0;
}
// EXPECT-PATHS: 2
