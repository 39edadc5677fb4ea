/* No symbolic input at all: a single path that computes and checks a small
 * checksum and ends normally. */
#include "symtest.h"

static unsigned checksum(const char *s) {
  unsigned h = 5381;
  while (*s)
    h = h * 33u + (unsigned char)*s++;
  return h;
}

int main(void) {
  unsigned h = checksum("symtest");
  symtest_assert(h == checksum("symtest"));
  if (h == 0)
    return 1;
  return 0;
}
// EXPECT-PATHS: 1
// EXPECT-NO-ERRORS
