/* Indirect calls: a function pointer loaded from a table with a symbolic
 * index, and a function pointer passed as an argument (callback).
 *
 * op in [0, 4) selects one of four functions.  The engine forks when it
 * resolves the symbolic call target: one path per op value, and inside,
 * apply() calls the callback with a concrete target.  The functions do not
 * branch.  4 paths. */
#include "symtest.h"

typedef int (*binop)(int, int);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int second(int a, int b) { (void)a; return b; }

static int apply(binop f, int a, int b) { return f(a, b); }

int main(void) {
  static const binop table[4] = {add, sub, mul, second};
  int op = symtest_range(0, 4, "op");
  int a = symtest_range(-100, 100, "a");
  binop f = table[op];            /* symbolic index, pointer-valued load */
  int r = f(a, 3);                /* indirect call, symbolic target */
  int r2 = apply(add, r, 1);      /* indirect call, concrete target */
  symtest_assert(r2 == r + 1);
  return r2 > 0; /* a comparison value, not a branch */
}
// EXPECT-PATHS: 4
// EXPECT-NO-ERRORS
