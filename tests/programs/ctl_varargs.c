/* Variadic functions: va_start/va_arg/va_end (va_arg of int and long long
 * through the x86-64 va_list structure) and va_copy.
 *
 * The count is concrete and the summed values are symbolic; the only fork
 * is `total > 0` at the end: 2 paths. */
#include <stdarg.h>
#include "symtest.h"

static long long sum(int count, ...) {
  va_list ap, again;
  long long total = 0;
  va_start(ap, count);
  va_copy(again, ap);
  for (int i = 0; i < count; i++)
    total += va_arg(ap, int);
  long long check = 0;
  for (int i = 0; i < count; i++)
    check += va_arg(again, int);
  va_end(again);
  va_end(ap);
  return total == check ? total : -1;
}

static long long sum_wide(int count, ...) {
  va_list ap;
  long long total = 0;
  va_start(ap, count);
  for (int i = 0; i < count; i++)
    total += va_arg(ap, long long);
  va_end(ap);
  return total;
}

int main(void) {
  int a = symtest_range(-1000, 1000, "a");
  int b = symtest_range(-1000, 1000, "b");
  long long s = sum(3, a, b, 7);
  long long w = sum_wide(2, (long long)a * 100000, (long long)b);
  symtest_assert(s == (long long)a + b + 7);
  symtest_assert(w == (long long)a * 100000 + b);
  if (s > 0)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
