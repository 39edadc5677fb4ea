/*
 * wordcount - count lines, words and bytes; -L prints the longest word.
 *
 *   wordcount [-l] [-w] [-c] [-L] [FILE]    FILE, or standard input
 *
 * Options select what is printed (several may be given; none: lines, words,
 * bytes). Words are runs of non-space characters.
 *
 * Planted bug: the longest word is kept in an 8-byte buffer and copied there
 * (NUL included, as strcpy does) when it has at most 8 characters, so a word
 * of exactly 8 bytes writes its terminating NUL one past the end (`ptr`). The
 * copy is a loop in the program, so the native build's bounds checks catch
 * it too.
 *
 * Error paths: a file that cannot be opened ("wordcount: cannot open", exit
 * 1), a failed read ("wordcount: read error", exit 3), a failed write
 * ("wordcount: write error", exit 4).
 *
 * SYMTEST-ARGS: --sym-args 0 2 2 --sym-files 1 10 --sym-stdin 10 --max-fail 1
 * MAX-FAIL-ARGS: A --sym-files 1 3
 * EXPECT-FAIL-EXIT: 1 open
 * EXPECT-FAIL-EXIT: 3 read
 * EXPECT-FAIL-EXIT: 4 write
 */
#include <ctype.h>
#include <stdio.h>
#include <unistd.h>

static long lines, words, bytes;
static char word[64];
static size_t word_len;
static char longest[8];
static size_t longest_len;

static void end_word(void) {
  if (word_len == 0)
    return;
  words++;
  word[word_len] = '\0';
  if (word_len > longest_len && word_len <= sizeof longest) {
    for (size_t i = 0; i <= word_len; i++)
      longest[i] = word[i]; // EXPECT-ERROR: ptr
    longest_len = word_len;
  }
  word_len = 0;
}

static void count(FILE *in) {
  int c;
  while ((c = getc(in)) != EOF) {
    bytes++;
    if (c == '\n')
      lines++;
    if (isspace(c))
      end_word();
    else if (word_len < sizeof word - 1)
      word[word_len++] = (char)c;
  }
  end_word();
}

int main(int argc, char **argv) {
  int show_lines = 0, show_words = 0, show_bytes = 0, show_longest = 0;
  int opt;
  while ((opt = getopt(argc, argv, "lwcL")) != -1) {
    switch (opt) {
    case 'l':
      show_lines = 1;
      break;
    case 'w':
      show_words = 1;
      break;
    case 'c':
      show_bytes = 1;
      break;
    case 'L':
      show_longest = 1;
      break;
    default:
      fputs("usage: wordcount [-l] [-w] [-c] [-L] [FILE]\n", stderr);
      return 2;
    }
  }
  if (!show_lines && !show_words && !show_bytes && !show_longest)
    show_lines = show_words = show_bytes = 1;

  FILE *in = stdin;
  if (optind < argc) {
    in = fopen(argv[optind], "r");
    if (!in) {
      fprintf(stderr, "wordcount: cannot open %s\n", argv[optind]);
      return 1;
    }
  }
  count(in);
  if (ferror(in)) {
    fputs("wordcount: read error\n", stderr);
    return 3;
  }
  if (in != stdin)
    fclose(in);

  if (show_lines)
    printf("%ld ", lines);
  if (show_words)
    printf("%ld ", words);
  if (show_bytes)
    printf("%ld ", bytes);
  if (show_longest)
    printf("%s", longest);
  putchar('\n');
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fputs("wordcount: write error\n", stderr);
    return 4;
  }
  return 0;
}
