/* An index with a constant taken off: `&b[i - 100]`. The pointer folds to
 * `(b - 100) + i`, whose constant part lies inside `a`, the object allocated
 * just below `b`; the access still belongs to `b`, the GEP's base (it used to
 * be checked against `a`: a false out-of-bounds report, and the in-bounds
 * path lost). The pointer is stored and loaded again before the access.
 *
 * Paths: 100 <= i < 356 reads `b` (always 'b', so the `if` does not fork);
 * 356 <= i < 400 runs past `b` into where `c` lies natively: one error path.
 * 1 normal + 1 error = 2. */
#include <string.h>
#include "symtest.h"

struct cursor {
  char *p;
};

int main(void) {
  char a[256];
  char b[256];
  char c[256];
  memset(a, 'a', sizeof a);
  memset(b, 'b', sizeof b);
  memset(c, 'c', sizeof c);
  unsigned long i;
  symtest_make_symbolic(&i, sizeof i, "i");
  symtest_assume(i >= 100);
  symtest_assume(i < 400);
  struct cursor cur;
  cur.p = &b[i - 100];
  char *q = cur.p;
  if (*q == 'b') // EXPECT-ERROR: ptr
    return 0;
  return 1;
}
// EXPECT-PATHS: 2
