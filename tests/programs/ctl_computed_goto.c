/* GCC's labels as values (computed goto), as interpreters dispatch their
 * bytecode (Lua's VM, CPython's): a static table of `&&label`s indexed by
 * a symbolic opcode, and `goto *p`. Each label is one destination.
 *
 * Paths: op >= 4 returns early (1); op 0..3 jumps to its label (4), and op 3
 * ("halt") divides by zero when arg == 7 (1 error path): 6 paths. */
#include "symtest.h"

static int run(unsigned op, int arg) {
  static const void *const table[] = {&&add, &&sub, &&neg, &&halt};
  if (op >= 4)
    return -1;
  goto *table[op];
add:
  return arg + 1;
sub:
  return arg - 1;
neg:
  return -arg;
halt:
  return 100 / (arg - 7); // EXPECT-ERROR: div
}

int main(void) {
  unsigned op = (unsigned)symtest_int("op");
  int arg = symtest_range(0, 10, "arg");
  return run(op, arg) > 50;
}
// EXPECT-PATHS: 6
