/* main's envp edited in place, as gawk's load_environ does: each
 * "NAME=value" is split at its '=' (a NUL written there), read as two
 * strings, and the '=' put back. A process's environment strings are
 * writable (the kernel copies them onto the stack), and so are the engine's;
 * the native replay must give the program writable strings too (it gave
 * string literals, so the first write faulted natively where the engine
 * went on).
 *
 * Paths: the loop over envp is concrete; `v == 5` forks: 1 error + 1
 * normal = 2. */
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(int argc, char **argv, char **envp) {
  unsigned found = 0;
  (void)argc;
  (void)argv;
  for (char **e = envp; *e; e++) {
    char *eq = strchr(*e, '=');
    if (!eq)
      continue;
    *eq = '\0';
    if (strcmp(*e, "HOME") == 0 && strcmp(eq + 1, "/symtest") == 0)
      found++;
    *eq = '=';
  }
  klee_assert(found == 1);
  char *h = getenv("HOME");
  klee_assert(h && strcmp(h, "/symtest") == 0);
  h[0] = '_'; /* through getenv's pointer: the same writable string */
  klee_assert(strcmp(getenv("HOME"), "_symtest") == 0);
  int v = klee_int("v");
  if (v == 5)
    klee_report_error(__FILE__, __LINE__, "v is five", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 2
