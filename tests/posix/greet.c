/* printf and a symbolic argument: exits 3 exactly when argv[1] is "hi". */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	printf("hello, %d argument(s)\n", argc - 1);
	if (argc > 1 && strcmp(argv[1], "hi") == 0) {
		printf("hi yourself\n");
		return 3;
	}
	return 0;
}
