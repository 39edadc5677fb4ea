/*
 * head - print the first lines of a file.
 *
 *   head [-n COUNT] [FILE]    10 lines of FILE (or standard input)
 *
 * COUNT is parsed with strtol; a bad or negative COUNT is a usage error.
 *
 * Planted bug: with COUNT 0 the "lines left" computation divides by it
 * (a leftover progress-report feature), a division by zero.
 *
 * Error paths: a file that cannot be opened ("head: cannot open", exit 1)
 * and a read error ("head: read error", exit 3).
 *
 * SYMTEST-ARGS: --sym-args 0 3 2 --sym-files 1 4 --sym-stdin 4
 * MAX-FAIL-ARGS: -n 2 A --sym-files 1 4
 * EXPECT-FAIL-EXIT: 1 open
 * EXPECT-FAIL-EXIT: 3 read
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  long count = 10;
  int i = 1;
  if (i < argc && strcmp(argv[i], "-n") == 0) {
    if (i + 1 >= argc) {
      fputs("head: -n needs a count\n", stderr);
      return 2;
    }
    char *end;
    errno = 0;
    count = strtol(argv[i + 1], &end, 10);
    if (*end != '\0' || end == argv[i + 1] || count < 0 || errno) {
      fprintf(stderr, "head: bad count '%s'\n", argv[i + 1]);
      return 2;
    }
    i += 2;
  }
  FILE *f = stdin;
  if (i < argc) {
    f = fopen(argv[i], "r");
    if (!f) {
      fprintf(stderr, "head: cannot open %s\n", argv[i]);
      return 1;
    }
  }
  long percent_step = 100 / count; // EXPECT-ERROR: div
  long printed = 0;
  int c;
  while (printed < count && (c = getc(f)) != EOF) {
    putchar(c);
    if (c == '\n')
      printed++;
  }
  if (ferror(f)) {
    fputs("head: read error\n", stderr);
    return 3;
  }
  if (f != stdin)
    fclose(f);
  return percent_step > 100 ? 1 : 0;
}
