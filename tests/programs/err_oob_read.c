/* Out-of-bounds read: a symbolic index one or two elements past the end of
 * a stack array.
 *
 * Paths: the load forks an error path for i in {4, 5}; the in-bounds path
 * then forks on `v > 2`: 1 error + 2 normal = 3. */
#include "symtest.h"

int main(void) {
  int arr[4] = {1, 2, 3, 4};
  int i = symtest_range(0, 6, "i");
  int v = arr[i]; // EXPECT-ERROR: ptr
  if (v > 2)
    return 1;
  return 0;
}
// EXPECT-PATHS: 3
