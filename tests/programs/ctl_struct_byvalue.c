/* Structs passed and returned by value.  x86-64 lowering at -O0 produces
 * different IR shapes: a 2 x i64 struct returned as { i64, i64 } (built
 * with insertvalue, read with extractvalue), an 8-byte struct coerced to
 * one i64, and a large struct returned through a hidden sret pointer and
 * passed byval.  Fields are symbolic.
 *
 * Paths: `q.hi > q.lo` in the caller forks: 2 paths. */
#include "symtest.h"

struct pair64 {
  long lo, hi;
};
struct pair32 {
  int a, b;
};
struct big {
  int v[8];
};

static struct pair64 make_pair(long a, long b) {
  struct pair64 p;
  p.lo = a;
  p.hi = b;
  return p;
}

static struct pair64 swap_pair(struct pair64 p) {
  struct pair64 q = {p.hi, p.lo};
  return q;
}

static struct pair32 halves(long x) {
  struct pair32 r = {(int)(x & 0xffff), (int)(x >> 16)};
  return r;
}

static struct big fill(struct big in, int x) {
  for (int i = 0; i < 8; i++)
    in.v[i] += x;
  return in;
}

static long total(struct big b) {
  long t = 0;
  for (int i = 0; i < 8; i++)
    t += b.v[i];
  return t;
}

int main(void) {
  int x = symtest_range(0, 1000, "x");
  int y = symtest_range(0, 1000, "y");
  struct pair64 p = make_pair(x, y);
  struct pair64 q = swap_pair(p);
  struct pair32 h = halves((long)y << 16 | x);
  struct big zero = {{0}};
  struct big b = fill(zero, x);

  symtest_assert(q.lo == y);
  symtest_assert(q.hi == x);
  symtest_assert(h.a == x);
  symtest_assert(h.b == y);
  symtest_assert(total(b) == 8L * x);
  if (q.hi > q.lo)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
