/* klee_define_fixed_object in the page at address 0 (KLEE's
 * test/Feature/DefineFixedObject.c: 4 bytes at 0x80): accesses there are
 * the object's, not null pointer dereferences.
 * Natively the replay maps that page, which only a process allowed raw I/O
 * may do (below vm.mmap_min_addr); elsewhere the test cannot be replayed.
 *
 * Paths: `*p == 10` concretely; `r == 7` forks: 1 error + 1 normal = 2. */
// NATIVE-REPLAY-NEEDS-PAGE-ZERO
#include "klee/klee.h"
#include <stdio.h>

#define ADDRESS ((int *)0x0080)

int main(void) {
  klee_define_fixed_object(ADDRESS, 4);
  int *p = ADDRESS;
  *p = 10;
  printf("*p: %d\n", *p);
  klee_assert(*p == 10);
  int r = klee_int("r");
  *p = r;
  if (*p == 7)
    klee_report_error(__FILE__, __LINE__, "register is 7", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 2
