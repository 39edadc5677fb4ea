/* The program's environment is empty under the engine (main's envp, environ,
 * getenv), and the native replay runs it with an empty environment too, so
 * a harness that reads a variable takes the same path on both sides.
 * (KLEE passes its own environment; symtest does not, so tests do not
 * depend on the machine.)
 *
 * Paths: no fork (nothing is set); `v == 5` forks: 1 error + 1 normal = 2. */
#include <stdio.h>
#include <stdlib.h>
#include "klee/klee.h"

int main(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  klee_assert(envp[0] == 0);
  if (getenv("HOME") || getenv("PATH"))
    klee_report_error(__FILE__, __LINE__, "environment not empty", "user");
  int v = klee_int("v");
  if (v == 5)
    klee_report_error(__FILE__, __LINE__, "v is five", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 2
