/* i1: _Bool values, short-circuit && / || (a branch on the left operand and
 * a phi i1 at -O0), logical not and xor of booleans.
 *
 * Paths: `p && q` branches on p only (q is just the phi's incoming value);
 * `p || s` branches on p again, which is already decided.  So 2 paths
 * (p, !p).  The assertions can never fail. */
#include "symtest.h"

int main(void) {
  unsigned char c;
  symtest_make_symbolic(&c, sizeof c, "c");
  _Bool p = c & 1;
  _Bool q = (c >> 1) & 1;
  _Bool s = (c >> 2) & 1;

  _Bool both = p && q;
  _Bool either = p || s;
  _Bool differ = p ^ q;
  _Bool not_p = !p;

  symtest_assert(both == (p & q));
  symtest_assert(either == (p | s));
  symtest_assert(differ == (p != q));
  symtest_assert(not_p + p == 1);
  return both + either;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
