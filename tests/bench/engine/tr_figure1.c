/* The Figure 1 `tr` harness (same as tests/demo/tr.c): time to the
 * out-of-bounds read and to full line coverage. */
#include <stdlib.h>
#include "symtest.h"

#define ARG_LEN 4

static void expand(char *arg, unsigned char *buffer) {
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
        *buffer++ = ac;
      } else if (*arg != '\0')
        *buffer++ = *arg++;
    } else if (*arg == '[') {
      arg++;
      i = *arg++;
      if (*arg++ != '-') { /* reads past the end when `[` is last but one */
        *buffer++ = '[';
        arg -= 2;
        continue;
      }
      ac = *arg++;
      while (i <= ac) *buffer++ = i++;
      arg++; /* Skip ']' */
    } else
      *buffer++ = *arg++;
  }
}

int main(void) {
  /* Like a command-line argument: exactly ARG_LEN characters and a NUL. */
  char *arg = malloc(ARG_LEN + 1);
  symtest_make_symbolic(arg, ARG_LEN, "arg");
  arg[ARG_LEN] = '\0';
  unsigned char buffer[1024];
  expand(arg, buffer);
  free(arg);
  return 0;
}
