/*
 * tr - translate or delete characters read from standard input.
 *
 *   tr SET1 SET2    replace each character of SET1 by the one at the same
 *                   position of SET2 (the last one of SET2 when it is shorter)
 *   tr -d SET1      delete the characters of SET1
 *
 * A SET is characters, ranges "a-z" and the escapes \n \t \\.
 *
 * Planted bug: a range is expanded into the fixed table `set1` without a
 * bound check, so a range of more than 16 characters ("a-z") writes past
 * its end.
 *
 * Error paths: a failed read of stdin ("tr: read error", exit 3) and a
 * failed write of the output ("tr: write error", exit 4).
 *
 * SYMTEST-ARGS: --sym-args 1 2 3 --sym-stdin 3
 * MAX-FAIL-ARGS: a b --sym-stdin 2
 * EXPECT-FAIL-EXIT: 3 read
 * EXPECT-FAIL-EXIT: 4 write
 */
#include <stdio.h>
#include <string.h>

static char set1[16], set2[16];

/* Expands SET into `out`; returns its length. */
static int expand(const char *s, char *out, int is_set1) {
  int n = 0;
  while (*s) {
    char c = *s++;
    if (c == '\\' && *s) {
      c = *s++;
      if (c == 'n')
        c = '\n';
      else if (c == 't')
        c = '\t';
    } else if (*s == '-' && s[1]) {
      char hi = s[1];
      s += 2;
      while (c < hi) {
        if (is_set1)
          set1[n++] = c++; // EXPECT-ERROR: ptr
        else
          out[n++ % 16] = c++;
      }
    }
    if (n < 16)
      out[n++] = c;
  }
  return n;
}

int main(int argc, char **argv) {
  int del = argc > 1 && strcmp(argv[1], "-d") == 0;
  if (argc != 3) {
    fputs("usage: tr SET1 SET2 | tr -d SET1\n", stderr);
    return 2;
  }
  int n1 = expand(argv[del ? 2 : 1], set1, 1);
  int n2 = del ? 0 : expand(argv[2], set2, 0);
  char buf[4];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, stdin)) > 0) {
    for (size_t i = 0; i < got; i++) {
      int j = 0;
      while (j < n1 && set1[j] != buf[i])
        j++;
      if (j == n1)
        putchar(buf[i]);
      else if (!del && n2 > 0)
        putchar(set2[j < n2 ? j : n2 - 1]);
    }
  }
  if (ferror(stdin)) {
    fputs("tr: read error\n", stderr);
    return 3;
  }
  if (fflush(stdout) != 0) {
    fputs("tr: write error\n", stderr);
    return 4;
  }
  return 0;
}
