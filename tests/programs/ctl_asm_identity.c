/* Inline assembly the compiler only uses as a barrier or a register identity
 * (as real code bases launder `const` or hide a value from the optimizer):
 * a "memory" barrier, `pause`, `rep; nop`, an output tied to its own input
 * ("+r"), a comment-only template whose output is tied to an input
 * ("=r"(q) : "0"(p)), and two outputs tied crosswise (a struct of outputs).
 * Each executes as what it means, so every path goes on past it.
 *
 * If the outputs were not the tied inputs, the assertion could fail.
 * Paths: hidden < 0 (1), hidden > 4 (1), 0..4 in bounds (1), hidden == 4
 * reads past `table` through the laundered pointer (1): 4 paths. */
#include "symtest.h"

static const char table[4] = {1, 2, 3, 4};

static const char *launder(const char *p) {
  const char *q;
  __asm__ volatile("# launder %0" : "=r"(q) : "0"(p));
  return q;
}

int main(void) {
  int x = symtest_int("x");
  int y = symtest_int("y");
  __asm__ volatile("" ::: "memory");
  __asm__ volatile("pause");
  __asm__ volatile("rep; nop" ::: "memory");
  int hidden = x;
  __asm__("" : "+r"(hidden));
  int a, b;
  __asm__("# swap" : "=r"(a), "=r"(b) : "1"(x), "0"(y));
  symtest_assert((a == y) & (b == x) & (hidden == x));
  if (hidden < 0 || hidden > 4)
    return 1;
  return launder(table)[hidden]; // EXPECT-ERROR: ptr
}
// EXPECT-PATHS: 4
