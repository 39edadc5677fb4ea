/*
 * echo - write the arguments, separated by spaces.
 *
 *   echo [-n] [-e] [ARG...]    -n: no final newline; -e: interpret escapes
 *
 * Escapes with -e: \n \t \\ \a \c (stop output) and \xHH (hexadecimal).
 *
 * Planted bug: the hex-digit table covers '0'..'F' only, so a lower-case
 * digit after \x ('a'..'f' pass the isxdigit check) indexes past its end.
 *
 * Error path: a failed write ("echo: write error", exit 4).
 *
 * SYMTEST-ARGS: --sym-args 0 3 3
 * MAX-FAIL-ARGS: hi
 * EXPECT-FAIL-EXIT: 4 write
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Values of '0'..'9', then 0 for ':'..'@', then 'A'..'F'. */
static const unsigned char hexval[23] = {0, 1, 2, 3, 4, 5, 6, 7, 8,  9,  0, 0,
                                         0, 0, 0, 0, 0, 10, 11, 12, 13, 14, 15};

/* Prints S with escapes; returns 0 when \c asks to stop. */
static int put_escaped(const char *s) {
  while (*s) {
    char c = *s++;
    if (c != '\\' || !*s) {
      putchar(c);
      continue;
    }
    c = *s++;
    switch (c) {
    case 'n': putchar('\n'); break;
    case 't': putchar('\t'); break;
    case 'a': putchar('\a'); break;
    case 'c': return 0;
    case 'x':
      if (isxdigit((unsigned char)*s)) {
        int d = *s++ - '0';
        putchar(hexval[d]); // EXPECT-ERROR: ptr
        break;
      }
      putchar('x');
      break;
    default: putchar('\\'); putchar(c); break;
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  int newline = 1, escapes = 0, i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "-n") == 0)
      newline = 0;
    else if (strcmp(argv[i], "-e") == 0)
      escapes = 1;
    else
      break;
  }
  for (int first = i; i < argc; i++) {
    if (i > first)
      putchar(' ');
    if (!escapes)
      fputs(argv[i], stdout);
    else if (!put_escaped(argv[i])) {
      newline = 0;
      break;
    }
  }
  if (newline)
    putchar('\n');
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fputs("echo: write error\n", stderr);
    return 4;
  }
  return 0;
}
