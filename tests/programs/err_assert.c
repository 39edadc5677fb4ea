/* A failing assert() from <assert.h> (glibc's macro calls __assert_fail).
 *
 * Paths: the assert branches on y != 21; x == 7 fails: 1 normal + 1 error.
 */
#include <assert.h>
#include "symtest.h"

int main(void) {
  int x = symtest_range(0, 10, "x");
  int y = x * 3;
  assert(y != 21); // EXPECT-ERROR: assert
  return y;
}
// EXPECT-PATHS: 2
