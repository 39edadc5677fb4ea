/* The same tool written by hand, with one class of input wrong: its letter
 * range stops at 'y', so 'z' stays lower case. */
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		puts("usage: upper WORD");
		return 2;
	}
	for (char *p = argv[1]; *p; p++) {
		char c = *p;
		if (c >= '0' && c <= '9')
			putchar('#');
		else if (c >= 'a' && c <= 'y')
			putchar(c - 'a' + 'A');
		else
			putchar(c);
	}
	putchar('\n');
	return 0;
}
