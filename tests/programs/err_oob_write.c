/* Out-of-bounds write: a symbolic index up to two bytes past the end of a
 * heap buffer.
 *
 * Paths: the store forks an error path for n in {8, 9}; the in-bounds path
 * ends normally: 2. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  char *buf = malloc(8);
  if (!buf)
    return 2;
  int n = symtest_range(0, 10, "n");
  for (int k = 0; k < 8; k++)
    buf[k] = 0;
  buf[n] = 'x'; // EXPECT-ERROR: ptr
  int first = buf[0] == 'x';
  free(buf);
  return first;
}
// EXPECT-PATHS: 2
