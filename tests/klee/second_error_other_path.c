/* A second error after a first one, on another path (KLEE's
 * test/regression/2018-10-01-double-segfault.c): each of two calls of the
 * program faults inside the library at the same line; both are reported,
 * since an error in library code is the program's at the call that led
 * there (one test per error location and program call site).
 *
 * Paths: `b` forks: 2 paths, each a `ptr` error inside strdup. */
// EXPECT-STAT: errors 2
#include <stdbool.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
  bool b;
  klee_make_symbolic(&b, sizeof b, "b");
  char *s0;
  if (b)
    s0 = strdup((char *)0xdeadbeef);
  else
    s0 = strdup((char *)0xdeafbee5);
  (void)s0;
  return 0;
}
// EXPECT-PATHS: 2
