/* A symtest.h harness linked with musl (no POSIX runtime): strlen, strtol and
 * qsort run as real libc code. Planted bug: an index from strtol is not
 * checked against the table size. */
#include <stdlib.h>
#include <string.h>
#include "symtest.h"

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(void)
{
	char buf[4];
	int table[3] = { 30, 10, 20 };
	symtest_make_symbolic(buf, sizeof buf, "buf");
	buf[3] = 0;
	qsort(table, 3, sizeof table[0], cmp);
	if (strlen(buf) != 1)
		return table[0] == 10 ? 0 : 1;
	long i = strtol(buf, 0, 10);
	return table[i]; /* BUG: i may be 3..9 */
}
