/* A KLEE harness that prints: printf/fprintf/puts work without --libc (musl
 * is linked in because the program calls functions it does not define).
 *
 * Paths: musl's stdout is line-buffered until its first write finds it is
 * not a terminal, so that printf looks for '\n' in its output: `c == '\n'`
 * forks (2 paths); `c == 'q'` forks the assertion's error path: 1 error + 2
 * normal = 3. */
#include <stdio.h>
#include "klee/klee.h"

int main(void) {
  char c;
  klee_make_symbolic(&c, sizeof c, "c");
  printf("input: %c\n", c);
  fprintf(stderr, "checking %d byte\n", 1);
  puts("done reading");
  klee_assert(c != 'q'); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 3
