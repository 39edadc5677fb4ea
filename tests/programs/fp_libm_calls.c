/* Calls of <math.h> functions on symbolic values (sqrt, fmod, floorf,
 * fmax, copysign): IEEE defines their results exactly, so the engine
 * computes them as floating-point expressions (with or without a libc
 * linked in). A distance check with a wrong bound, and an angle reduction
 * by fmod whose result keeps the dividend's sign.
 *
 * Paths: dx NaN or out of range (1), dy (1), distance > 5 with the wrong
 * bound (1 error), angle < 0 after fmod (1 error), >= 0 (1). */
#include "symtest.h"
#include <math.h>

int main(void) {
  float dx, dy;
  double angle;
  symtest_make_symbolic(&dx, sizeof dx, "dx");
  symtest_make_symbolic(&dy, sizeof dy, "dy");
  symtest_make_symbolic(&angle, sizeof angle, "angle");
  if (!(fabsf(dx) <= 4.0f))
    return 1;
  if (!(fabsf(dy) <= 4.0f))
    return 1;
  double d = sqrt((double)dx * dx + (double)dy * dy);
  if (d > 5.0)
    /* |dx|, |dy| <= 4 does not bound the distance by 5 */
    symtest_report_error(__FILE__, __LINE__, "too far", "user"); // EXPECT-ERROR: user
  symtest_assert(floorf(dx) <= dx && fmax(d, 0.0) == d);
  symtest_assert(copysign(d, -1.0) <= 0.0);
  double a = fmod(angle, 360.0);
  if (a < 0.0)
    symtest_report_error(__FILE__, __LINE__, "negative angle", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 5
