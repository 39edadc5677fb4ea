/* Fork-heavy: 17 independent symbolic branches give 2^17 = 131,072 paths.
 * Explored breadth-first with an instruction budget, it measures the cost of
 * forking and the memory per live state. */
#include "symtest.h"

#define N 17

int main(void) {
  unsigned char b[N];
  symtest_make_symbolic(b, sizeof b, "b");
  unsigned score = 0;
  for (int i = 0; i < N; i++)
    if (b[i] > 100)
      score += 1u << i;
  /* Some work after the forks, so states stay alive under BFS. */
  unsigned h = score;
  for (int k = 0; k < 50; k++)
    h = h * 31 + k;
  return (int)(h & 1);
}
