/* Globals: a mutable int, a const table read at a symbolic index, a string
 * literal read at a symbolic index through a const pointer, a mutable
 * global char array initialised from a literal, a static counter.
 *
 * Paths: all reads are in bounds; `buffer[3] == 'l'` forks on i in {2, 3}
 * versus {0, 1}: 2 paths. */
#include "symtest.h"

int counter = 5;
const int powers[4] = {1, 2, 4, 8};
const char *const greeting = "hello";
char buffer[8] = "abc";
static int calls;

static int bump(void) { return ++calls; }

int main(void) {
  int i = symtest_range(0, 4, "i");
  counter += i;
  bump();
  bump();
  int p = powers[i];
  buffer[3] = greeting[i];
  symtest_assert(calls == 2);
  symtest_assert(counter == 5 + i);
  symtest_assert(p == 1 << i);
  symtest_assert(buffer[0] == 'a');
  symtest_assert(buffer[4] == 0);
  if (buffer[3] == 'l')
    return 1;
  return 0;
}
// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS
