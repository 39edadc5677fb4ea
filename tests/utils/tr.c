/*
 * tr - translate or delete characters read from standard input.
 *
 *   tr SET1 SET2    replace each character of SET1 by the one at the same
 *                   position of SET2 (the last one of SET2 when it is shorter)
 *   tr -d SET1      delete the characters of SET1
 *
 * A SET is characters, ranges "a-z" and the escapes \n \t \\.
 *
 * Control characters in the output are shown as '?'.
 *
 * Planted bug: the byte to print indexes the 128-entry control-character
 * table as (signed) char, so a byte >= 0x80 reads before the table.
 *
 * Error paths: a failed read of stdin ("tr: read error", exit 3) and a
 * failed write of the output ("tr: write error", exit 4).
 *
 * SYMTEST-ARGS: --sym-args 1 2 3 --sym-stdin 2
 * MAX-FAIL-ARGS: a b --sym-stdin 2
 * EXPECT-FAIL-EXIT: 3 read
 * EXPECT-FAIL-EXIT: 4 write
 */
#include <stdio.h>
#include <string.h>

static const char is_control[128] = {[0 ... 31] = 1, [127] = 1};

/* Expands SET into `out` (at most 16 characters); returns its length. */
static int expand(const char *s, char *out) {
  int n = 0;
  while (*s && n < 16) {
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
      while (c < hi && n < 15)
        out[n++] = c++;
    }
    out[n++] = c;
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fputs("usage: tr SET1 SET2 | tr -d SET1\n", stderr);
    return 2;
  }
  int del = strcmp(argv[1], "-d") == 0;
  char set1[16], set2[16];
  int n1 = expand(argv[del ? 2 : 1], set1);
  int n2 = del ? 0 : expand(argv[2], set2);
  int ch;
  while ((ch = getchar()) != EOF) {
    int i = 0;
    while (i < n1 && set1[i] != ch)
      i++;
    if (i < n1 && (del || n2 == 0))
      continue;
    char to = i < n1 ? set2[i < n2 ? i : n2 - 1] : (char)ch;
    putchar(is_control[to] && to != '\n' ? '?' : to); // EXPECT-ERROR: ptr
  }
  if (ferror(stdin)) {
    fputs("tr: read error\n", stderr);
    return 3;
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fputs("tr: write error\n", stderr);
    return 4;
  }
  return 0;
}
