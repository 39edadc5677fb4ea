/*
 * wc - count lines, words and bytes.
 *
 *   wc [-l|-w|-c] [FILE]    FILE, or standard input when there is none
 *
 * Error paths: a file that cannot be opened ("wc: cannot open", exit 1), a
 * failed read ("wc: read error", exit 3), a failed close ("wc: close
 * error", exit 5).
 *
 * SYMTEST-ARGS: --sym-args 0 2 2 --sym-files 1 4 --sym-stdin 4
 * MAX-FAIL-ARGS: A --sym-files 1 3
 * EXPECT-FAIL-EXIT: 1 open
 * EXPECT-FAIL-EXIT: 3 read
 * EXPECT-FAIL-EXIT: 5 close
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int only = 0; /* 'l', 'w', 'c' or 0 for all */
  int i = 1;
  if (i < argc && argv[i][0] == '-' && argv[i][1]) {
    if (strchr("lwc", argv[i][1]) == NULL || argv[i][2]) {
      fprintf(stderr, "wc: unknown option %s\n", argv[i]);
      return 2;
    }
    only = argv[i][1];
    i++;
  }
  int fd = 0;
  if (i < argc) {
    fd = open(argv[i], O_RDONLY);
    if (fd < 0) {
      fprintf(stderr, "wc: cannot open %s\n", argv[i]);
      return 1;
    }
  }
  long lines = 0, words = 0, bytes = 0;
  int in_word = 0;
  char buf[8];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    for (ssize_t k = 0; k < n; k++) {
      bytes++;
      if (buf[k] == '\n')
        lines++;
      if (isspace((unsigned char)buf[k]))
        in_word = 0;
      else if (!in_word) {
        in_word = 1;
        words++;
      }
    }
  }
  if (n < 0) {
    fputs("wc: read error\n", stderr);
    return 3;
  }
  if (fd != 0 && close(fd) != 0) {
    fputs("wc: close error\n", stderr);
    return 5;
  }
  if (only == 'l')
    printf("%ld\n", lines);
  else if (only == 'w')
    printf("%ld\n", words);
  else if (only == 'c')
    printf("%ld\n", bytes);
  else
    printf("%ld %ld %ld\n", lines, words, bytes);
  return 0;
}
