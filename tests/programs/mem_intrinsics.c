/* memcpy, memmove (overlapping) and memset with concrete sizes on symbolic
 * data, and a struct assignment (an llvm.memcpy at -O0).
 *
 * Paths: the copies do not branch; `dst[3] == 'x'` forks: 2 paths. */
#include <string.h>
#include "symtest.h"

struct record {
  int id;
  char tag[6];
};

int main(void) {
  unsigned char src[8];
  symtest_make_symbolic(src, sizeof src, "src");
  unsigned char dst[8];

  memcpy(dst, src, sizeof dst);
  memmove(dst + 1, dst, 6); /* overlapping: dst[1..6] = src[0..5] */
  memset(dst + 7, 0xAA, 1);
  symtest_assert(dst[0] == src[0]);
  for (int k = 1; k < 7; k++)
    symtest_assert(dst[k] == src[k - 1]);
  symtest_assert(dst[7] == 0xAA);

  struct record a, b;
  memset(&a, 0, sizeof a);
  a.id = src[0];
  memcpy(a.tag, src + 2, 5);
  b = a; /* struct copy */
  symtest_assert(b.id == src[0]);
  for (int k = 0; k < 5; k++)
    symtest_assert(b.tag[k] == (char)src[k + 2]);
  symtest_assert(b.tag[5] == 0);

  if (dst[3] == 'x')
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
