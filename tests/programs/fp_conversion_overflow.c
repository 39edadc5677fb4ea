/* A double converted to int: a duration in seconds at or above 2^31 does
 * not fit, and the conversion is undefined behaviour (UBSan's
 * float-cast-overflow; x86 would give INT_MIN, a negative tick count). The
 * engine reports the conversion itself as an `overflow` error.
 *
 * Paths: negative or NaN (1), fits (1), does not fit (1 error). */
#include "symtest.h"

static char buf[16];

int main(void) {
  double seconds;
  symtest_make_symbolic(&seconds, sizeof seconds, "seconds");
  if (!(seconds >= 0.0))
    return 1;
  int ticks = (int)seconds; // EXPECT-ERROR: overflow
  buf[ticks % 16] = 1;
  return 0;
}
// EXPECT-PATHS: 3
