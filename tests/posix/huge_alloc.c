/* An allocation no allocator can grant (128 TiB: all of a process's address
 * space, far above the engine's limit) returns NULL in the engine and
 * natively: AddressSanitizer's allocator aborts by default instead (`delay
 * -b 102g`: exit 1 in the engine, SIGABRT natively). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	size_t n = argv[1][0] == 'g' ? (size_t)1 << 47 : 16;
	char *p = malloc(n);
	if (!p) {
		puts("no memory");
		return 1;
	}
	p[0] = 1;
	free(p);
	return 0;
}
