/* Operations that would be errors without their guards: the guards make
 * every error check infeasible, so nothing may be reported.
 *
 * Paths: `y != 0` forks, `i < 4` forks, `p != NULL` is decided by `flag`
 * which forks: 2 * 2 * 2 = 8. */
#include <stddef.h>
#include "symtest.h"

int main(void) {
  unsigned x, y, i;
  int flag;
  int arr[4] = {1, 2, 3, 4};
  int cell = 7;
  symtest_make_symbolic(&x, sizeof x, "x");
  symtest_make_symbolic(&y, sizeof y, "y");
  symtest_make_symbolic(&i, sizeof i, "i");
  flag = symtest_range(0, 2, "flag");
  unsigned q = 0;
  int v = 0;
  if (y != 0)
    q = x / y;
  if (i < 4)
    v = arr[i];
  int *p = NULL;
  if (flag)
    p = &cell;
  if (p != NULL)
    v += *p;
  return (int)(q & 1) + v;
}
// EXPECT-PATHS: 8
// EXPECT-NO-ERRORS
