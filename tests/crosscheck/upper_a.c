/* Upper-cases its argument, digits become '#': the C library's way. */
#include <ctype.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		puts("usage: upper WORD");
		return 2;
	}
	for (char *p = argv[1]; *p; p++) {
		if (isdigit((unsigned char)*p))
			putchar('#');
		else
			putchar(toupper((unsigned char)*p));
	}
	putchar('\n');
	return 0;
}
