/* int -> float -> int is not the identity above 2^24 in magnitude: sitofp
 * rounds to nearest even. Near INT_MAX the float rounds up to 2^31, whose
 * conversion back does not fit an int (undefined: `overflow`).
 *
 * Paths: n round-trips (1), the float does not fit an int (1 error), n
 * does not round-trip (1 error). */
#include "symtest.h"

int main(void) {
  int n;
  symtest_make_symbolic(&n, sizeof n, "n");
  float f = (float)n;
  int back = (int)f; // EXPECT-ERROR: overflow
  symtest_assert(back == n); // EXPECT-ERROR: assert
  return 0;
}
// EXPECT-PATHS: 3
