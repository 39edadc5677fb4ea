/* --external-calls=none (KLEE's test/Feature/NoExternalCallsAllowed.c): a
 * call of a function the program does not define ends its path with an
 * error. Given explicitly, the option keeps --libc=auto from linking a libc
 * (as KLEE, whose default is no libc), so strlen is such a call. The error
 * is the engine's (kind `external`; KLEE names it a user error): natively
 * the call runs, so its test is not compared.
 *
 * Paths: `s[0] == 'x'` forks: 1 external error + 1 normal = 2. */
// OPTIONS: --external-calls=none
#include <string.h>
#include "klee/klee.h"

int main(void) {
  char s[4];
  klee_make_symbolic(s, sizeof s, "s");
  s[3] = 0;
  if (s[0] == 'x')
    return (int)strlen(s); // EXPECT-ERROR: external
  return 0;
}
// EXPECT-PATHS: 2
