/*
 * cat -n - copy files to standard output, numbering the lines.
 *
 *   catn [-n] [FILE...]    FILEs (or standard input) in order; -n numbers
 *
 * Error paths: a file that cannot be opened is reported and skipped (exit
 * 1 at the end); a write error ("catn: write error", exit 4).
 *
 * SYMTEST-ARGS: --sym-args 0 2 2 --sym-files 2 3 --sym-stdin 3
 * MAX-FAIL-ARGS: -n A --sym-files 1 3
 * EXPECT-FAIL-EXIT: 1 open
 * EXPECT-FAIL-EXIT: 4 write
 */
#include <stdio.h>
#include <string.h>

static int number, at_line_start = 1;
static long line_no;

static void copy(FILE *f) {
  int c;
  while ((c = getc(f)) != EOF) {
    if (number && at_line_start)
      printf("%6ld\t", ++line_no);
    putchar(c);
    at_line_start = c == '\n';
  }
}

int main(int argc, char **argv) {
  int status = 0, files = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0) {
      number = 1;
      continue;
    }
    files++;
    FILE *f = fopen(argv[i], "r");
    if (!f) {
      fprintf(stderr, "catn: %s: cannot open\n", argv[i]);
      status = 1;
      continue;
    }
    copy(f);
    fclose(f);
  }
  if (files == 0)
    copy(stdin);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fputs("catn: write error\n", stderr);
    return 4;
  }
  return status;
}
