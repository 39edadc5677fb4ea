/* A Fahrenheit-to-Celsius threshold: the alarm must not fire below 212 F,
 * but the conversion rounds, so only floating-point reasoning finds the
 * readings where it does. The reading is a symbolic double.
 *
 * Paths: f is NaN or below -500 (1), above 1000 (1), Celsius <= 100 (1), above
 * 100 with f >= 212 (1), above 100 with f < 212 is infeasible, exactly
 * 100 C at f == 212 passes; the assert on `f > 212.000001` fails for f in
 * (212, 212.000001] (1 error). */
#include "symtest.h"

static double to_celsius(double f) { return (f - 32.0) * 5.0 / 9.0; }

int main(void) {
  double f;
  symtest_make_symbolic(&f, sizeof f, "fahrenheit");
  if (!(f >= -500.0 && f <= 1000.0))
    return 1;
  double c = to_celsius(f);
  if (c > 100.0) {
    /* boiling: the reading must be well above 212 F */
    symtest_assert(f > 212.000001); // EXPECT-ERROR: assert
    return 2;
  }
  return 0;
}
// EXPECT-PATHS: 5
