/* malloc, calloc, realloc and free used correctly with concrete sizes and
 * symbolic contents: calloc zeroes, realloc preserves the old contents,
 * every block is freed exactly once.
 *
 * Paths: `v > 0` forks: 2 paths. */
#include <stdlib.h>
#include "symtest.h"

int main(void) {
  unsigned v;
  symtest_make_symbolic(&v, sizeof v, "v");
  unsigned *a = malloc(4 * sizeof *a);
  unsigned *z = calloc(4, sizeof *z);
  if (!a || !z)
    return 2;
  for (int k = 0; k < 4; k++)
    a[k] = v + (unsigned)k;
  for (int k = 0; k < 4; k++)
    symtest_assert(z[k] == 0);

  unsigned *b = realloc(a, 8 * sizeof *b);
  if (!b)
    return 2;
  for (int k = 4; k < 8; k++)
    b[k] = v * (unsigned)k;
  for (int k = 0; k < 4; k++)
    symtest_assert(b[k] == v + (unsigned)k);

  char *s = malloc(1);
  free(s);
  free(NULL); /* allowed */
  free(z);
  unsigned last = b[7];
  free(b);
  symtest_assert(last == v * 7u);
  if ((int)v > 0)
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
