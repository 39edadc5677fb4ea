/* A small head: `head [-n N] [FILE]` prints the first N lines (default 2).
 * Planted bug: a count above 8 overflows the line-length table. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = 2, opt;
	int lengths[8];
	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: head [-n N] [FILE]\n");
			return 2;
		}
		char *end;
		long v = strtol(optarg, &end, 10);
		if (*end || v < 0) {
			fprintf(stderr, "head: bad count\n");
			return 2;
		}
		n = (int)v;
	}
	FILE *f = stdin;
	if (optind < argc) {
		f = fopen(argv[optind], "r");
		if (!f) {
			perror("head");
			return 1;
		}
	}
	int line = 0, len = 0, c;
	while (line < n && (c = fgetc(f)) != EOF) {
		putchar(c);
		len++;
		if (c == '\n') {
			lengths[line] = len; /* BUG: line can reach 8 when n > 8 */
			line++;
			len = 0;
		}
	}
	if (f != stdin && fclose(f) != 0) {
		perror("head: close");
		return 1;
	}
	return line > 0 ? lengths[0] : 0;
}
