/* klee_mark_global: the engine treats the object as a global, so freeing it
 * is a `free` error, as in KLEE. Natively the mark has no effect (the
 * object is an ordinary heap block), so this test does not replay.
 *
 * Paths: 1 (the free error). */
// NO-NATIVE-REPLAY
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  char *h = malloc(16);
  klee_mark_global(h);
  free(h); // EXPECT-ERROR: free
  return 0;
}
// EXPECT-PATHS: 1
