/*
 * sort - sort the lines of a file or of standard input.
 *
 *   sort [-r] [-n] [FILE]    -r: reverse; -n: by leading number (strtol)
 *
 * At most 8 lines of at most 15 characters (longer lines are cut).
 *
 * Error paths: a file that cannot be opened ("sort: cannot open", exit 1),
 * a failed read ("sort: read error", exit 3).
 *
 * SYMTEST-ARGS: --sym-args 0 2 2 --sym-files 1 5 --sym-stdin 5
 * MAX-FAIL-ARGS: A --sym-files 1 4
 * EXPECT-FAIL-EXIT: 1 open
 * EXPECT-FAIL-EXIT: 3 read
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char lines[8][16];
static int reverse, numeric;

static int compare(const char *a, const char *b) {
  int r;
  if (numeric) {
    long x = strtol(a, NULL, 10), y = strtol(b, NULL, 10);
    r = (x > y) - (x < y);
  } else {
    r = strcmp(a, b);
  }
  return reverse ? -r : r;
}

int main(int argc, char **argv) {
  FILE *f = stdin;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-r") == 0)
      reverse = 1;
    else if (strcmp(argv[i], "-n") == 0)
      numeric = 1;
    else if (f == stdin) {
      f = fopen(argv[i], "r");
      if (!f) {
        fprintf(stderr, "sort: cannot open %s\n", argv[i]);
        return 1;
      }
    }
  }
  int n = 0;
  while (n < 8 && fgets(lines[n], sizeof lines[n], f))
    n++;
  if (ferror(f)) {
    fputs("sort: read error\n", stderr);
    return 3;
  }
  for (int i = 1; i < n; i++) {
    char tmp[16];
    strcpy(tmp, lines[i]);
    int j = i;
    while (j > 0 && compare(lines[j - 1], tmp) > 0) {
      strcpy(lines[j], lines[j - 1]);
      j--;
    }
    strcpy(lines[j], tmp);
  }
  for (int i = 0; i < n; i++)
    fputs(lines[i], stdout);
  return 0;
}
