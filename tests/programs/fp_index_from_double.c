/* An array index computed from a double: a bucket for a ratio in [0, 1].
 * The programmer clamps at 1.0 but scales by 10.5, so ratios in
 * [20/21, 1] index bucket 10 of a 10-element table: an out-of-bounds write
 * that only floating-point reasoning reaches.
 *
 * Paths: ratio NaN or < 0 (1), > 1 (1), in range and in bounds (1), out of
 * bounds (1 error). */
#include "symtest.h"

static int histogram[10];

int main(void) {
  double ratio;
  symtest_make_symbolic(&ratio, sizeof ratio, "ratio");
  if (!(ratio >= 0.0))
    return 1;
  if (ratio > 1.0)
    return 1;
  int bucket = (int)(ratio * 10.5);
  histogram[bucket] += 1; // EXPECT-ERROR: ptr
  return 0;
}
// EXPECT-PATHS: 4
