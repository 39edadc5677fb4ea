/* Several branches over symbolic input, for checking that two runs of the
 * engine explore the same paths and write the same test cases.
 *
 * Paths (three input bytes b0, b1, b2):
 *   b0: == 'S' (bit 0x10 then known set), != 'S' with bit 0x10 set,
 *       bit 0x10 clear                                       3 classes
 *   `b1 > 'm'` forks                                        x 2 = 6
 *   `b2 < b0` is feasible both ways in every class          x 2 = 12
 *   the loop runs (b2 & 3) times: 4 exits, all feasible     x 4 = 48
 * (confirmed by enumerating all 2^24 inputs natively). */
#include "symtest.h"

int main(void) {
  unsigned char b0, b1, b2;
  symtest_make_symbolic(&b0, sizeof b0, "b0");
  symtest_make_symbolic(&b1, sizeof b1, "b1");
  symtest_make_symbolic(&b2, sizeof b2, "b2");
  int score = 0;
  if (b0 == 'S')
    score += 1;
  else if (b0 & 0x10)
    score += 2;
  if (b1 > 'm')
    score += 4;
  if (b2 < b0)
    score += 8;
  for (int k = 0; k < (b2 & 3); k++)
    score += 16;
  return score;
}
// EXPECT-PATHS: 48
// EXPECT-NO-ERRORS
