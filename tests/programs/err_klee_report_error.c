/* KLEE's user-error and abort intrinsics: klee_report_error on one input,
 * klee_abort on another.
 *
 * Paths: `v == 1` and `v == 2` fork: 2 errors + 1 normal = 3. */
#include "klee/klee.h"

int main(void) {
  int v = klee_range(0, 4, "v");
  if (v == 1)
    klee_report_error(__FILE__, __LINE__, "v must not be 1", "user.err"); // EXPECT-ERROR: user
  if (v == 2)
    klee_abort(); // EXPECT-ERROR: abort
  return v;
}
// EXPECT-PATHS: 3
