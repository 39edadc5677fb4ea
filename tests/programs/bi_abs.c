/* abs/labs/llabs.  With -fsanitize=signed-integer-overflow clang checks
 * the negation inside abs(), so INT_MIN (and LONG_MIN, LLONG_MIN) are ruled
 * out by assumptions; then no error is possible.
 *
 * Paths: the assumptions do not fork; `x == a` forks on the sign of a:
 * 2 paths. */
#include <limits.h>
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  int a = symtest_int("a");
  long l;
  long long ll;
  symtest_make_symbolic(&l, sizeof l, "l");
  symtest_make_symbolic(&ll, sizeof ll, "ll");
  symtest_assume(a != INT_MIN);
  symtest_assume(l != LONG_MIN);
  symtest_assume(ll != LLONG_MIN);

  int x = abs(a);
  long y = labs(l);
  long long z = llabs(ll);
  symtest_assert(x >= 0);
  symtest_assert((x == a) | (x == -a));
  symtest_assert(y >= 0);
  symtest_assert((y == l) | (y == -l));
  symtest_assert(z >= 0);
  symtest_assert((z == ll) | (z == -ll));

  if (x == a)
    return 0;
  return 1;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
