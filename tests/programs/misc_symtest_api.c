/* symtest's own API used without errors: symtest_make_symbolic on a struct,
 * symtest_range, symtest_int, symtest_assume, symtest_prefer_cex,
 * symtest_is_symbolic, symtest_get_value_*, symtest_warning,
 * symtest_print_expr, and symtest_assert that always holds.
 *
 * Paths: only `p.x + p.y > 10` forks (x, y in [0, 8] by assumption, so the
 * sum cannot overflow): 2 paths. */
#include "symtest.h"

struct point {
  int x, y;
};

int main(void) {
  struct point p;
  symtest_make_symbolic(&p, sizeof p, "point");
  int k = symtest_range(0, 3, "k");
  int n = symtest_int("n");
  symtest_assume(p.x >= 0);
  symtest_assume(p.x <= 8);
  symtest_assume(p.y >= 0);
  symtest_assume(p.y <= 8);
  symtest_prefer_cex(&p, p.x == p.y);
  unsigned sym = symtest_is_symbolic((uintptr_t)n);
  int32_t v32 = symtest_get_value_i32(p.x);
  int64_t v64 = symtest_get_value_i64((int64_t)n);
  uint32_t u32 = symtest_get_value_u32((uint32_t)k);
  uint64_t u64 = symtest_get_value_u64((uint64_t)p.y);
  void *ptr = symtest_get_value_ptr(&p);
  symtest_warning("checking the symtest API");
  symtest_print_expr("k is", k);
  symtest_assert(ptr == (void *)&p);
  symtest_assert(k >= 0);
  symtest_assert(k < 3);
  (void)sym;
  (void)v32;
  (void)v64;
  (void)u32;
  (void)u64;
  if (p.x + p.y > 10)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
