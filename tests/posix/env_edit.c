/* A program that edits its environment's strings in place, as gawk's
 * load_environ does: each "NAME=value" is split at its '=' (a NUL written
 * there), read as two strings, and the '=' put back. A process's environment
 * strings are writable (the kernel copies them onto the stack), and so are
 * the engine's; a native run that hands the program string literals instead
 * (read-only memory) faults at the first write, which the engine never sees.
 *
 * Paths: the first byte of stdin is 'u' (HOME's value upper-cased in place
 * through getenv's pointer: exit 1) or not (exit 0). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(void) {
  unsigned n = 0;
  char c = 0;
  for (char **e = environ; *e; e++) {
    char *eq = strchr(*e, '=');
    if (!eq)
      continue;
    *eq = '\0';
    if (!strcmp(*e, "HOME") || !strcmp(*e, "PATH") || !strcmp(*e, "PWD")) {
      printf("%s is %s\n", *e, eq + 1);
      n++;
    }
    *eq = '=';
  }
  if (n != 3)
    return 2;
  if (read(0, &c, 1) != 1)
    return 3;
  if (c != 'u')
    return 0;
  for (char *h = getenv("HOME"); h && *h; h++)
    *h = (char)toupper((unsigned char)*h);
  printf("HOME is %s\n", getenv("HOME"));
  return 1;
}
