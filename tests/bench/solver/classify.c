/* Character classes over a symbolic 8-byte buffer, with a neighbour
 * comparison per byte: many feasible paths (fork-heavy), constraints on
 * one byte or two adjacent ones. */
#include "symtest.h"

static int classify(unsigned char c) {
  if (c < 32)
    return 0;
  if (c < 'A')
    return 1;
  if (c <= 'Z')
    return 2;
  if (c < 'a')
    return 3;
  if (c <= 'z')
    return 4;
  return 5;
}

int main(void) {
  unsigned char buf[8];
  symtest_make_symbolic(buf, sizeof buf, "buf");
  int score = 0;
  for (int i = 0; i < 8; i++) {
    score = score * 3 + classify(buf[i]);
    if (buf[i] == buf[(i + 1) % 8])
      score ^= 7;
  }
  return score & 0x7f;
}
