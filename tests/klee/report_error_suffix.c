/* klee_report_error's suffix names the error file (testN.mine.err), as in
 * KLEE; the error kind stays `user`.
 *
 * Paths: `v == 2` forks: 1 error + 1 normal = 2. */
#include "klee/klee.h"

int main(void) {
  int v = klee_range(0, 4, "v");
  if (v == 2)
    klee_report_error(__FILE__, __LINE__, "v is two", "mine"); // EXPECT-ERROR: mine
  return v;
}
// EXPECT-PATHS: 2
