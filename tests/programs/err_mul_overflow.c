/* Signed multiplication overflow: width * height with both below 100000.
 *
 * Paths: the multiplication forks an error path (e.g. 50000 * 50000); the
 * other side returns normally: 1 normal + 1 error = 2. */
#include "symtest.h"

int main(void) {
  int w = symtest_range(0, 100000, "w");
  int h = symtest_range(0, 100000, "h");
  int area = w * h; // EXPECT-ERROR: overflow
  return area & 1;
}
// EXPECT-PATHS: 2
