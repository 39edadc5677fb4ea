/* A double's bits through a union: the exponent field selects a table
 * entry, and arithmetic on the double must agree with the bit-level view
 * (doubling adds one to the exponent of a normal number).
 *
 * Both asserts hold for every input (no false report); the exponent then
 * indexes a 1024-entry table, out of bounds for exponents >= 1024.
 *
 * Paths: e == 0 (1), e >= 0x7fe (1), in bounds (1), out of bounds
 * (1 error). */
#include "symtest.h"
#include <stdint.h>

static int table[1024];

int main(void) {
  union { double d; uint64_t u; } v, w;
  symtest_make_symbolic(&v.d, sizeof v.d, "v");
  unsigned e = (v.u >> 52) & 0x7ff;
  if (e == 0 || e >= 0x7fe)
    return 1;
  w.d = v.d * 2.0;
  unsigned e2 = (w.u >> 52) & 0x7ff;
  symtest_assert(e2 == e + 1);
  symtest_assert((w.u & 0xfffffffffffffull) == (v.u & 0xfffffffffffffull));
  return table[e]; // EXPECT-ERROR: ptr
}
// EXPECT-PATHS: 4
