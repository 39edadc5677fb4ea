/* All ten icmp predicates (eq ne ugt uge ult ule sgt sge slt sle) on the
 * same two 8-bit values viewed as signed and as unsigned.  The signed and
 * unsigned orders disagree exactly when the sign bits differ.
 *
 * Paths: the chain below forks on `a == b` (1 path: equal), then on the
 * signs (`sa < 0`, `sb < 0`), then on the order: for unequal a, b:
 *   sa < 0, sb < 0: a < b or a > b     -> 2
 *   sa < 0, sb >= 0: decided           -> 1
 *   sa >= 0, sb < 0: decided           -> 1
 *   sa >= 0, sb >= 0: a < b or a > b   -> 2
 * Total 1 + 6 = 7 paths.  (`a < b ? 1 : 2` would be a select, not a
 * branch: no fork.)  The assertions (relations between predicates)
 * hold on every path. */
#include "symtest.h"

int main(void) {
  unsigned char a, b;
  symtest_make_symbolic(&a, sizeof a, "a");
  symtest_make_symbolic(&b, sizeof b, "b");
  signed char sa = (signed char)a, sb = (signed char)b;

  symtest_assert((a != b) == !(a == b));
  symtest_assert((a > b) == (b < a));
  symtest_assert((a >= b) == !(a < b));
  symtest_assert((a <= b) == !(a > b));
  symtest_assert((sa > sb) == (sb < sa));
  symtest_assert((sa >= sb) == !(sa < sb));
  symtest_assert((sa <= sb) == !(sa > sb));
  /* unsigned and signed order agree iff the sign bits are equal */
  symtest_assert(((a < b) == (sa < sb)) == ((sa < 0) == (sb < 0)));

  if (a == b)
    return 0;
  if (sa < 0) {
    if (sb < 0) {
      if (a < b)
        return 1;
      return 2;
    }
    return 3;
  }
  if (sb < 0)
    return 4;
  if (sa < sb)
    return 5;
  return 6;
}
// EXPECT-PATHS: 7
// EXPECT-NO-ERRORS
