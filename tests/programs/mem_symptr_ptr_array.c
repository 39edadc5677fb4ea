/* A symbolic index into an array of pointers to three different objects,
 * then loads and stores through the resulting symbolic pointer.
 *
 * Paths: the load `*ptrs[i]` may touch a, b or c: the engine forks once per
 * object (3 paths, each constraining i).  The later store through the same
 * pointer and the if-chain are decided on each path.  3 paths. */
#include "symtest.h"

int main(void) {
  int a = 10, b = 20, c = 30;
  int *ptrs[3] = {&a, &b, &c};
  int i = symtest_range(0, 3, "i");
  int v = *ptrs[i];
  symtest_assert(v == 10 * (i + 1));
  *ptrs[i] += 1;
  symtest_assert(a + b + c == 61);
  if (v == 10)
    return 0;
  if (v == 20)
    return 1;
  return 2;
}
// EXPECT-PATHS: 3
// EXPECT-NO-ERRORS
