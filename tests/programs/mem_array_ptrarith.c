/* Arrays and pointer arithmetic with symbolic indices that always stay in
 * bounds: symbolic-index loads and stores, pointer difference, pointer
 * comparison, a 2-D array, walking a pointer to the end of an array.
 *
 * Paths: all accesses stay inside their arrays (no fork); `p < q` forks on
 * i < j: 2 paths. */
#include <stddef.h>
#include "symtest.h"

int main(void) {
  int arr[8];
  int grid[3][4];
  int i = symtest_range(0, 8, "i");
  int j = symtest_range(0, 8, "j");
  for (int k = 0; k < 8; k++)
    arr[k] = k * k;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++)
      grid[r][c] = r * 10 + c;

  int *p = arr + i;
  int *q = &arr[j];
  ptrdiff_t diff = q - p;
  symtest_assert(*p == i * i);
  symtest_assert(diff == j - i);
  symtest_assert(grid[i % 3][j % 4] == (i % 3) * 10 + j % 4);

  arr[j] = -1; /* store at a symbolic index */
  symtest_assert((arr[i] == -1) == (i == j));

  int sum = 0;
  for (int *it = arr; it != arr + 8; it++) /* concrete trip count */
    sum += *it != -1;
  symtest_assert(sum == 7);

  if (p < q)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
