/* <assert.h> and klee/klee.h in one harness compile together (klee.h does
 * not declare __assert_fail), and both assertions report `assert` at the
 * line of their use.
 *
 * Paths: each assertion forks an error path: 2 errors + 1 normal = 3. */
#include <assert.h>
#include "klee/klee.h"

int main(void) {
  int a = klee_int("a");
  assert(a != 7); // EXPECT-ERROR: assert
  klee_assert(a != 9); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 3
