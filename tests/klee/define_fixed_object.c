/* klee_define_fixed_object: memory at an address of the harness's choice
 * (as a device register block would be); the engine and the native replay
 * both map it.
 *
 * Paths: `r == 0x42` forks: 1 error + 1 normal = 2. */
#include "klee/klee.h"

#define REGS ((volatile unsigned *)0x7e0000000000UL)

int main(void) {
  klee_define_fixed_object((void *)REGS, 4096);
  unsigned r = (unsigned)klee_int("r");
  REGS[3] = r;
  if (REGS[3] == 0x42)
    klee_report_error(__FILE__, __LINE__, "register is 0x42", "user"); // EXPECT-ERROR: user
  return 0;
}
// EXPECT-PATHS: 2
