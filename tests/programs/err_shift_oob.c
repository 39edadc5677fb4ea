/* Shift by an amount >= the width of the type (unsigned value, so only the
 * shift amount is checked).
 *
 * Paths: the shift forks an error path for amount in [32, 40); the other
 * side returns normally: 1 normal + 1 error = 2. */
#include "symtest.h"

int main(void) {
  unsigned amount = (unsigned)symtest_range(0, 40, "amount");
  unsigned bit = 1u << amount; // EXPECT-ERROR: overflow
  return bit == 8;
}
// EXPECT-PATHS: 2
