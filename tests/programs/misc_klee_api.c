/* KLEE's API used without errors: klee_make_symbolic, klee_range (including
 * the one-value form, which creates no object), klee_int, klee_assume,
 * klee_prefer_cex, klee_is_symbolic, klee_get_value_i32, klee_warning(_once),
 * klee_print_expr and a klee_assert that always holds.
 *
 * Paths: assumptions and the other intrinsics do not fork; `a > b` forks,
 * and on its false side `c < 0` forks (c < a <= b < 20): 3 paths. */
#include "klee/klee.h"

int main(void) {
  int a;
  klee_make_symbolic(&a, sizeof a, "a");
  int b = klee_range(10, 20, "b");
  int c = klee_int("c");
  int five = klee_range(5, 6, "five"); /* constant 5, no object */
  klee_assume(a > 0);
  klee_assume(c < a);
  klee_prefer_cex(&a, a < 100);
  unsigned sym = klee_is_symbolic((uintptr_t)a);
  int some_b = klee_get_value_i32(b);
  klee_warning("checking the KLEE API");
  klee_warning_once("printed once");
  klee_warning_once("printed once");
  klee_print_expr("a is", a);
  klee_assert(five == 5);
  (void)sym;
  (void)some_b;
  if (a > b)
    return 1;
  if (c < 0)
    return 2;
  return 0;
}
// EXPECT-PATHS: 3
// EXPECT-NO-ERRORS
