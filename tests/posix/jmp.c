/* setjmp/longjmp: an error deep in a recursive parser jumps back to main.
 * Exits 4 when the input has an unbalanced ')', 0 otherwise. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf on_error;
static int depth;

static void parse(const char *s)
{
	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && --depth < 0)
			longjmp(on_error, 4);
	}
}

int main(int argc, char **argv)
{
	int code = setjmp(on_error);
	if (code) {
		printf("unbalanced\n");
		return code;
	}
	if (argc > 1)
		parse(argv[1]);
	printf("ok %d\n", depth);
	return 0;
}
