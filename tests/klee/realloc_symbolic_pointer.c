/* realloc and free through a pointer that may point to any of three heap
 * objects: one path per object (KLEE's resolveExact), each with the right
 * contents, and no false "invalid free".
 *
 * Paths: realloc forks 3 ways; on each, q[0]/q[1] are known and free(q)
 * is exact; free(objs[(k + 1) % 3]) resolves to one object per path: 3. */
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
  char *objs[3];
  objs[0] = malloc(4);
  objs[1] = malloc(8);
  objs[2] = malloc(2);
  memset(objs[0], 'a', 4);
  memset(objs[1], 'b', 8);
  memset(objs[2], 'c', 2);
  int k = klee_range(0, 3, "k");
  char *q = realloc(objs[k], 16);
  klee_assert(q != 0);
  klee_assert(q[0] == 'a' + k && q[1] == 'a' + k);
  free(q);
  free(objs[(k + 1) % 3]);
  return 0;
}
// EXPECT-PATHS: 3
// EXPECT-NO-ERRORS
