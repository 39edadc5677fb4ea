/* The same checks with UBSan's shift and division checks compiled in: each
 * bug is reported once (UBSan's branch already excludes the bad values on
 * the path that reaches the shift and the division).
 *
 * Paths: as without UBSan, 2 error paths + 1 normal = 3 (a second report
 * at either line would add a path). */
// CFLAGS: -fsanitize=shift,integer-divide-by-zero -fno-sanitize-recover=all
#include "klee/klee.h"

int main(void) {
  unsigned x = klee_range(0, 64, "x");
  int y = klee_int("y");
  unsigned v = 1u << x; // EXPECT-ERROR: overflow
  int q = 1000 / y; // EXPECT-ERROR: div
  return (int)(v & 1) + q;
}
// EXPECT-PATHS: 3
