/* Figure 11 of the KLEE paper: `mod_opt`, a power of two masked instead of
 * divided. Equal to `mod` for every y != 0. */
#include <stdio.h>
#include <symtest.h>

unsigned mod_opt(unsigned x, unsigned y)
{
	if ((y & -y) == y) /* power of two? */
		return x & (y - 1);
	else
		return x % y;
}

int main(void)
{
	unsigned x, y;
	symtest_make_symbolic(&x, sizeof x, "x");
	symtest_make_symbolic(&y, sizeof y, "y");
	unsigned r = mod_opt(x, y);
	fwrite(&r, sizeof r, 1, stdout);
	return 0;
}
