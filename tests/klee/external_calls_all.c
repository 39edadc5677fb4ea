/* --libc=none --external-calls=all: libc functions run natively on
 * concrete arguments (the symbolic input is concretized at the first call,
 * so one path goes on); printf with a double, snprintf writing a buffer,
 * atof returning a double.
 *
 * Paths: the first call concretizes `name`; nothing forks after: 1 path,
 * which fails the final check for the chosen input. */
// OPTIONS: --libc=none --external-calls=all
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
  char name[4];
  klee_make_symbolic(name, sizeof name, "name");
  name[3] = 0;
  size_t n = strlen(name);
  printf("%zu bytes, %.2f\n", n, 3.14159);
  char buf[16];
  snprintf(buf, sizeof buf, "n=%zu", n);
  klee_assert(strlen(buf) == 3);
  klee_assert(atof("2.5") == 2.5);
  return n != 3;
}
// EXPECT-PATHS: 1
// EXPECT-NO-ERRORS
