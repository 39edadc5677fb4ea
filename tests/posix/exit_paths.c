/* A program that leaves through _exit (as gnulib's close_stdout does after a
 * write error), through exit, and by returning from main: every way out keeps
 * its coverage data in a native `--coverage` build (cc --native --coverage). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  char c = 0;
  if (read(0, &c, 1) != 1)
    return 3;
  if (c == 'q') {
    fputs("quick exit\n", stderr);
    _exit(4); /* leaves without running exit handlers */
  }
  if (c == 'e')
    exit(5);
  return 0;
}
