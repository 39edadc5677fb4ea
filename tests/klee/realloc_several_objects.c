/* realloc of a pointer that may be any of several objects (KLEE's
 * test/Feature/MultipleReallocResolution.c): one path per object and per
 * size (a symbolic size takes its values, 0 and 8 here), each reporting the
 * out-of-bounds access it makes; the contents are copied, realloc(p, 0)
 * frees p and returns NULL (glibc, AddressSanitizer and KLEE agree),
 * realloc(NULL, 0) is malloc(0), and an interior pointer is a `free` error.
 *
 * Paths: k is 0..3 and n 0 or 8: the interior pointer (k == 3) fails before
 * the size matters (1 error); k = 0, 1, 2 each with n = 0 (3 normal) and
 * n = 8 (3 out-of-bounds errors, one per object) = 7. */
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
  char *objs[4];
  objs[0] = malloc(16);
  objs[1] = malloc(4);
  objs[2] = 0;
  objs[3] = objs[0] + 1;
  memset(objs[0], 'a', 16);
  memset(objs[1], 'b', 4);
  unsigned k = klee_range(0, 4, "k");
  unsigned n = 8 * klee_range(0, 2, "n");
  char *q = realloc(objs[k], n); // EXPECT-ERROR: free
  if (n == 0) {
    if (k == 2) {
      klee_assert(q != 0);
      free(q);
    } else {
      klee_assert(q == 0);
      free(objs[1 - k]);
    }
    return 0;
  }
  klee_assert(q != 0);
  if (k == 0) {
    klee_assert(q[0] == 'a' && q[7] == 'a');
    return q[12]; // EXPECT-ERROR: ptr
  }
  if (k == 1) {
    klee_assert(q[0] == 'b' && q[3] == 'b');
    return q[9]; // EXPECT-ERROR: ptr
  }
  return q[8]; // EXPECT-ERROR: ptr
}
// EXPECT-PATHS: 7
