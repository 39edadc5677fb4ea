/* A small wc: counts lines, words and bytes of stdin or of the files named. */
#include <ctype.h>
#include <stdio.h>

static int count(FILE *f, const char *name)
{
	long lines = 0, words = 0, bytes = 0;
	int c, in_word = 0;
	while ((c = getc(f)) != EOF) {
		bytes++;
		if (c == '\n')
			lines++;
		if (isspace(c))
			in_word = 0;
		else if (!in_word) {
			in_word = 1;
			words++;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "wc: %s: read error\n", name);
		return 1;
	}
	printf("%ld %ld %ld %s\n", lines, words, bytes, name);
	return 0;
}

int main(int argc, char **argv)
{
	int status = 0;
	if (argc < 2)
		return count(stdin, "-");
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		if (!f) {
			fprintf(stderr, "wc: %s: cannot open\n", argv[i]);
			status = 1;
			continue;
		}
		status |= count(f, argv[i]);
		fclose(f);
	}
	return status;
}
