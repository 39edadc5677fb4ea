/* abort() on one input.
 *
 * Paths: `code == 3` forks: 1 normal + 1 error = 2. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  int code = symtest_range(0, 5, "code");
  if (code == 3)
    abort(); // EXPECT-ERROR: abort
  return code;
}
// EXPECT-PATHS: 2
