/* klee_range with symbolic bounds that leave the range empty on a path ends
 * that path like a false assumption (KLEE's klee_range assumes the range);
 * constant bounds with begin >= end are the harness's error, reported as
 * `user` (as KLEE's runtime does).
 *
 * Paths: `n >= 7` forks; there, klee_range(n, 5) is empty: pruned. Below 7,
 * `n == 3` forks the constant empty range (a user error) from the normal
 * exit: 1 pruned + 1 error + 1 normal = 3. */
// EXPECT-STAT: assumptions_pruned 1
#include "klee/klee.h"

int main(void) {
  int n = klee_range(0, 10, "n");
  if (n >= 7)
    return klee_range(n, 5, "k");
  if (n == 3)
    return klee_range(4, 4, "empty"); // EXPECT-ERROR: user
  return n;
}
// EXPECT-PATHS: 3
