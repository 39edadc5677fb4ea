/* A weak function and a weak variable that nothing defines are null, as a
 * linker resolves them; code that checks before using them is fine.
 *
 * Paths: `x == 3` forks; the call is never made: 2 normal paths. */
#include <assert.h>
#include "klee/klee.h"

extern void optional_hook(int) __attribute__((weak));
extern int optional_counter __attribute__((weak));

int main(void) {
  int x = klee_int("x");
  assert(optional_hook == 0);
  assert(&optional_counter == 0);
  if (x == 3 && optional_hook)
    optional_hook(x);
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
