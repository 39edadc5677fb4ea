/* KLEE's API: klee_int, klee_assume and a failing klee_assert (a macro that
 * calls klee_assert_fail, as KLEE's).
 *
 * Paths: the assumptions do not fork; klee_assert branches on b != 144
 * and fails for a == 12: 1 normal + 1 error = 2. */
#include "klee/klee.h"

int main(void) {
  int a = klee_int("a");
  klee_assume(a >= 0);
  klee_assume(a < 1000);
  int b = a * a;
  klee_assert(b != 144); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 2
