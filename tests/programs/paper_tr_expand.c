/* The paper's Figure 1 (MINIX tr's `expand`), rewritten in its spirit.
 *
 * The argument is a symbolic two-character string plus its terminating
 * NUL (3 bytes).  After a '[' the code reads the character after it and
 * then, without checking for the end of the string, compares the next one
 * with '-'.  When '[' is the last character, that read is one past the
 * terminating NUL: the out-of-bounds read the paper reports at its line 18
 * (test case: an argument ending in '[', like the paper's `tr ["" ""]`).
 *
 * The octal escape loop counts its digits (the figure's `i < 4` guard with
 * the increment restored).  A trailing backslash is harmless here: the
 * code stops at the NUL after it.
 *
 * Paths: every comparison of a symbolic character forks.  With the two
 * characters c0, c1 (arg = c0 c1 NUL):
 *   c0 == NUL                                                    1
 *   c0 == '\\': c1 == NUL / c1 in [1,'0') / octal / > '7'         4
 *   c0 == '[': the read of the NUL is in bounds and != '-', so
 *              the loop restarts at c1: c1 == NUL / '\\' / other  3
 *              c1 == '[': reads arg[3], out of bounds (error)     1
 *   c0 other:  c1 == NUL / '\\' / other                           3
 *              c1 == '[': out of bounds (error)                   1
 * 11 normal + 2 errors (both at the marked line) = 13 paths
 * (confirmed by enumerating all 65536 inputs natively). */
#include <string.h>
#include "symtest.h"

#define ARG_LEN 3 /* two symbolic characters + terminating NUL */

static void expand(const char *arg, unsigned char *buffer) {
  int i, ac;
  while (*arg) {
    if (*arg == '\\') {
      arg++;
      i = ac = 0;
      if (*arg >= '0' && *arg <= '7') {
        do {
          ac = (ac << 3) + *arg++ - '0';
          i++;
        } while (i < 4 && *arg >= '0' && *arg <= '7');
        *buffer++ = (unsigned char)ac;
      } else if (*arg != '\0')
        *buffer++ = (unsigned char)*arg++;
    } else if (*arg == '[') {
      arg++;
      i = *arg++;
      if (*arg++ != '-') { // EXPECT-ERROR: ptr
        *buffer++ = '[';
        arg -= 2;
        continue;
      }
      ac = *arg++;
      while (i <= ac)
        *buffer++ = (unsigned char)i++;
      arg++; /* skip ']' */
    } else
      *buffer++ = (unsigned char)*arg++;
  }
}

int main(void) {
  char input[ARG_LEN - 1];
  symtest_make_symbolic(input, sizeof input, "arg");
  char arg[ARG_LEN];
  memcpy(arg, input, sizeof input);
  arg[ARG_LEN - 1] = '\0';
  unsigned char buffer[256];
  expand(arg, buffer);
  return 0;
}
// EXPECT-PATHS: 13
