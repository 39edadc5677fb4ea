/* malloc_usable_size: the engine's heap objects are exactly the size asked
 * for, which the C library may round up (natively it is at least that).
 *
 * The only fork is the branch on `n`: 2 paths, no error. */
#include <stddef.h>
#include <stdlib.h>
#include "symtest.h"

size_t malloc_usable_size(void *p);

int main(void) {
  unsigned n = symtest_range(1, 64, "n");
  char *p = malloc(24);
  symtest_assert(malloc_usable_size(p) >= 24);
  symtest_assert(malloc_usable_size(NULL) == 0);
  free(p);
  if (n > 32)
    return 1;
  return 0;
}
// EXPECT-NO-ERRORS
// EXPECT-PATHS: 2
