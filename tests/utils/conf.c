/*
 * conf - an option and configuration-file parser.
 *
 *   conf [-v] [-s SCALE] [-f FILE]    read KEY=VALUE lines from FILE
 *                                     (default "A"); print the settings
 *
 * Keys: "n" (the size, a number 1..99), "m" (the mode, "r" or "w"), "d"
 * (the divisor, a number); '#' starts a comment line; other keys are
 * errors.  -s sets the scale
 * (strtol), -v prints each line as it is parsed.
 *
 * Planted bug: the per-item size is size / divisor, and the divisor is
 * never checked against 0 ("d=0"): a division by zero.
 *
 * Error paths: an unreadable configuration file ("conf: cannot open",
 * exit 1), a failed close ("conf: close error", exit 5).
 *
 * SYMTEST-ARGS: --sym-args 0 2 2 --sym-files 1 3
 * MAX-FAIL-ARGS: --sym-files 1 3
 * EXPECT-FAIL-EXIT: 1 open
 * EXPECT-FAIL-EXIT: 5 close
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int verbose = 0, opt;
  long scale = 1, size = 10, div = 1;
  char mode = 'r';
  const char *path = "A";
  while ((opt = getopt(argc, argv, "vs:f:")) != -1) {
    switch (opt) {
    case 'v':
      verbose = 1;
      break;
    case 's':
      scale = strtol(optarg, NULL, 10);
      break;
    case 'f':
      path = optarg;
      break;
    default:
      fputs("usage: conf [-v] [-s SCALE] [-f FILE]\n", stderr);
      return 2;
    }
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "conf: cannot open %s\n", path);
    return 1;
  }
  char line[8];
  while (fgets(line, sizeof line, f)) {
    char *eq = strchr(line, '=');
    if (line[0] == '#')
      continue;
    if (!eq) {
      fputs("conf: expected KEY=VALUE\n", stderr);
      return 3;
    }
    *eq = '\0';
    if (verbose)
      printf("key %s\n", line);
    long v = strtol(eq + 1, NULL, 10);
    if (strcmp(line, "n") == 0 && v > 0 && v < 100)
      size = v;
    else if (strcmp(line, "m") == 0 && (eq[1] == 'r' || eq[1] == 'w'))
      mode = eq[1];
    else if (strcmp(line, "d") == 0)
      div = v;
    else {
      fprintf(stderr, "conf: bad setting %s\n", line);
      return 4;
    }
  }
  if (fclose(f) != 0) {
    fputs("conf: close error\n", stderr);
    return 5;
  }
  long item = size / div; // EXPECT-ERROR: div
  printf("size=%ld mode=%c item=%ld scale=%ld\n", size, mode, item, scale);
  return 0;
}
