/* Constructs real libc code emits that the loader rewrites before lowering:
 * floating point under `#pragma STDC FENV_ACCESS ON` (constrained intrinsics:
 * musl's fma, lrintl, ilogb), an `llvm.fmuladd` whose addend is another
 * fmuladd (musl's strtold at -O1), and `llvm.ptrmask` (`__builtin_align_down`,
 * musl's vfprintf reading a long double vararg), here on a symbolic pointer.
 *
 * Floating-point values are concrete; the only forks are the two `if`s on
 * `x`: 3 paths. */
#include "symtest.h"

#pragma STDC FENV_ACCESS ON
static double strict_ops(double a, double b, int i) {
  double s = a + b, d = a - b, p = a * b, q = a / b;
  float f = (float)q;          /* fptrunc */
  long double l = (long double)p + 0.25L; /* fpext, x86_fp80 add */
  long n = (long)l;            /* fptosi */
  double c = (double)i;        /* sitofp */
  if (s > d && !(q < 0.0) && f > 0.0f && n == 24 && c == 3.0)
    return s + d + p + c;      /* 10 + 2 + 24 + 3 */
  return -1.0;
}
#pragma STDC FENV_ACCESS OFF

static double chain(double a, double b, double c, double d, double e) {
  return a * b + (c * d + e * a);   /* fmuladd(a, b, fmuladd(c, d, e*a)) */
}

int main(void) {
  int x = symtest_range(0, 64, "x");
  symtest_assert(strict_ops(6.0, 4.0, 3) == 39.0);
  symtest_assert(chain(1.5, 2.0, 3.0, 4.0, 0.5) == 15.75);

  static char buf[64] __attribute__((aligned(16)));
  char *p = __builtin_align_down(buf + 16 + (x & 7), 16);
  symtest_assert(p == buf + 16);
  if (x < 8)
    return 1;
  if (x < 32)
    return 2;
  return 0;
}
// EXPECT-NO-ERRORS
// EXPECT-PATHS: 3
