/*
 * longword - count the words of a file; -L also prints the longest word.
 *
 *   longword [-L] [FILE]    FILE, or standard input
 *
 * Words are runs of characters other than blank, tab and newline; the
 * longest word is the longest one followed by one of those.
 *
 * Planted bug: the longest word is copied (strcpy, NUL included) into an
 * 8-byte buffer when it has at most 8 characters, so a word of exactly 8
 * characters, none of them NUL, writes its NUL one past the end (`ptr`). The copy happens when a word ends,
 * and only under -L: the bug needs the option and an input of 8 word
 * characters followed by a blank, and its trigger is the loop-carried word
 * length. Explored path by path, every path keeps its own concrete length and
 * the one that matters is one among hundreds of thousands; merged at the
 * loop head, the length is one `ite` and the check finds 8 at once
 * (`--merge-loops`, see the README). The copy is a loop in the program, so
 * the native build's bounds checks catch it too.
 *
 * SYMTEST-ARGS: --sym-args 0 2 2 --sym-files 1 10
 */
#include <stdio.h>
#include <string.h>

static char cur[64];
static char longest[8];
static size_t longest_len;

static void keep(size_t len) {
  if (len > longest_len && len <= sizeof longest) {
    cur[len] = '\0';
    // strcpy(longest, cur), as a loop of the program's own
    for (size_t i = 0; (longest[i] = cur[i]) != '\0'; i++) // EXPECT-ERROR: ptr
      ;
    longest_len = len;
  }
}

int main(int argc, char **argv) {
  int show_longest = 0;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-L") == 0)
      show_longest = 1;
    else
      path = argv[i];
  }
  FILE *in = stdin;
  if (path) {
    in = fopen(path, "r");
    if (!in) {
      fputs("longword: cannot open\n", stderr);
      return 1;
    }
  }
  size_t len = 0, words = 0;
  int c;
  while ((c = getc(in)) != EOF) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (len > 0) {
        words++;
        if (show_longest)
          keep(len);
      }
      len = 0;
    } else if (len < sizeof cur - 1) {
      cur[len++] = (char)c;
    }
  }
  if (len > 0)
    words++; // a last word without a blank after it is not kept
  printf("%zu", words);
  if (show_longest)
    printf(" %s", longest);
  putchar('\n');
  return 0;
}
