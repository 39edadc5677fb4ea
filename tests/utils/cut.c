/*
 * cut - print selected characters or fields of each input line.
 *
 *   cut -c N[-M] [FILE]         characters N to M (1-based)
 *   cut -f N [-d DELIM] [FILE]  field N, fields separated by DELIM (tab)
 *
 * Planted bug: field numbers are checked against the maximum but not
 * against 0, so "-f 0" stores the field start at index -1 of `starts`.
 *
 * Error paths: a file that cannot be opened ("cut: cannot open", exit 1),
 * a failed read ("cut: read error", exit 3).
 *
 * SYMTEST-ARGS: --sym-args 2 4 2 --sym-files 1 4 --sym-stdin 4
 * MAX-FAIL-ARGS: -c 2 A --sym-files 1 3
 * EXPECT-FAIL-EXIT: 1 open
 * EXPECT-FAIL-EXIT: 3 read
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int starts[8];

static void cut_line(const char *line, int chars, long from, long to, char delim) {
  if (chars) {
    for (long i = from - 1; i < to && line[i] && line[i] != '\n'; i++)
      putchar(line[i]);
  } else {
    int field = 1, i = 0;
    starts[from - 1] = 0; // EXPECT-ERROR: ptr
    while (line[i] && line[i] != '\n' && field <= from) {
      if (field == from)
        putchar(line[i]);
      if (line[i] == delim)
        field++;
      i++;
    }
  }
  putchar('\n');
}

int main(int argc, char **argv) {
  int chars = -1, i = 1;
  long from = 0, to = 0;
  char delim = '\t';
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
    char *end;
    if (strcmp(argv[i], "-d") == 0) {
      delim = argv[i + 1][0];
      continue;
    }
    if (strcmp(argv[i], "-c") != 0 && strcmp(argv[i], "-f") != 0)
      break;
    chars = argv[i][1] == 'c';
    from = strtol(argv[i + 1], &end, 10);
    to = from;
    if (*end == '-' && chars)
      to = strtol(end + 1, &end, 10);
    if (*end || from > 8 || to < from) {
      fprintf(stderr, "cut: bad list '%s'\n", argv[i + 1]);
      return 2;
    }
  }
  if (chars < 0 || (chars && from < 1)) {
    fputs("usage: cut -c N[-M] | -f N [-d DELIM] [FILE]\n", stderr);
    return 2;
  }
  FILE *f = stdin;
  if (i < argc && !(f = fopen(argv[i], "r"))) {
    fprintf(stderr, "cut: cannot open %s\n", argv[i]);
    return 1;
  }
  char line[16];
  while (fgets(line, sizeof line, f))
    cut_line(line, chars, from, to, delim);
  if (ferror(f)) {
    fputs("cut: read error\n", stderr);
    return 3;
  }
  return 0;
}
