/* main's third parameter (KLEE's test/Feature/Envp.c and
 * test/Runtime/POSIX/Envp.c): envp holds the program's environment, the same
 * array getenv reads. The environment is fixed (HOME=/symtest, PATH,
 * PWD=/symtest), under the engine and in every native replay, so tests do
 * not depend on the machine (KLEE passes its own).
 *
 * Paths: the loop over envp is concrete; `v == 5` forks: 1 error + 1
 * normal = 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(int argc, char **argv, char **envp) {
  klee_assert(argv[argc] == 0);
  int haspwd = 0;
  const char *home = "invalid$home";
  unsigned n = 0;
  for (char **e = envp; *e; e++, n++) {
    haspwd |= strncmp(*e, "PWD=", 4) == 0;
    if (strncmp(*e, "HOME=", 5) == 0)
      home = *e + 5;
  }
  klee_assert(haspwd);
  klee_assert(n == 3);
  const char *h = getenv("HOME");
  klee_assert(h && strcmp(h, home) == 0);
  klee_assert(strcmp(h, "/symtest") == 0);
  klee_assert(getenv("SYMTEST_KTEST") == 0 && getenv("KTEST_FILE") == 0);
  int v = klee_int("v");
  if (v == 5)
    klee_report_error(__FILE__, __LINE__, "v is five", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 2
