/* klee_alias_function (KLEE 2): after it, calls of `original` run
 * `replacement` on this path. Calls are not redirected natively, so the
 * error path does not replay there.
 *
 * Paths: `replacement` returns x + 100; `x == 1` forks: 1 error + 1 = 2. */
// NO-NATIVE-REPLAY
#include "klee/klee.h"

int original(int x) { return x; }
int replacement(int x) { return x + 100; }

int main(void) {
  int x = klee_int("x");
  klee_alias_function("original", "replacement");
  if (original(x) == 101)
    klee_report_error(__FILE__, __LINE__, "aliased call", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 2
