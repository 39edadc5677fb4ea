/* --sym-args: the exit code is the number of arguments, plus 10 when the first
 * one parses (strtol) as a number above 50. */
#include <stdlib.h>

int main(int argc, char **argv)
{
	int extra = 0;
	if (argc > 1) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (end != argv[1] && *end == 0 && v > 50)
			extra = 10;
	}
	return argc - 1 + extra;
}
