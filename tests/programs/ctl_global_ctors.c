/* Global constructors and destructors (`@llvm.global_ctors`/`_dtors`), which
 * the C runtime runs around main: constructors before main in ascending
 * priority, destructors at exit (after main returns or calls exit) in
 * descending priority. Constructor 101 registers the plugin `twice`, 102
 * registers `plus100` after it (a plugin that registers itself from a
 * constructor, as one linked with --whole-archive does); main chains the
 * plugins in registration order, so r = 2 * x + 100 only if 101 ran first.
 * The destructors see what main left: 102 runs first, then 101.
 *
 * Paths: the assertions on the registration are concrete (no fork).
 * x in [0, 1000):
 *   r == 142 (x == 21): user error in main (reversed order: (x + 100) * 2
 *     == 142 has no solution in range; no constructors: null plugins);
 *   x == 7: exit(0), the destructors run (last = 114: no fork);
 *   otherwise main returns, the destructors run; in destructor 101
 *     last == 300 (x == 100): user error, else a normal exit.
 * 1 + 1 + 2 = 4 paths. */
#include <stdlib.h>
#include "symtest.h"

typedef unsigned (*plugin)(unsigned);

static plugin plugins[2];
static int registered;
static int order[2];
static unsigned last;
static int dtors_run;

static unsigned twice(unsigned x) { return 2 * x; }
static unsigned plus100(unsigned x) { return x + 100; }

__attribute__((constructor(102))) static void register_plus100(void) {
  order[registered] = 102;
  plugins[registered++] = plus100;
}

__attribute__((constructor(101))) static void register_twice(void) {
  order[registered] = 101;
  plugins[registered++] = twice;
}

__attribute__((destructor(101))) static void check_last(void) {
  symtest_assert(dtors_run == 1); /* 102 ran before */
  dtors_run++;
  if (last == 300)
    symtest_report_error(__FILE__, __LINE__, "destructor saw 300", "user"); // EXPECT-ERROR: user
}

__attribute__((destructor(102))) static void count_dtor(void) {
  symtest_assert(dtors_run == 0);
  dtors_run++;
}

int main(void) {
  symtest_assert(registered == 2);
  symtest_assert(order[0] == 101);
  symtest_assert(order[1] == 102);
  unsigned x = (unsigned)symtest_range(0, 1000, "x");
  unsigned r = plugins[1](plugins[0](x));
  if (r == 142)
    symtest_report_error(__FILE__, __LINE__, "plugin chain hit", "user"); // EXPECT-ERROR: user
  last = r;
  if (x == 7)
    exit(0);
  return 0;
}
// EXPECT-PATHS: 4
