/* Figure 11 of the KLEE paper: `mod`, the reference. Its result's bytes are
 * its output. */
#include <stdio.h>
#include <symtest.h>

unsigned mod(unsigned x, unsigned y)
{
	return x % y;
}

int main(void)
{
	unsigned x, y;
	symtest_make_symbolic(&x, sizeof x, "x");
	symtest_make_symbolic(&y, sizeof y, "y");
	unsigned r = mod(x, y);
	fwrite(&r, sizeof r, 1, stdout);
	return 0;
}
