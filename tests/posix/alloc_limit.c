/* The engine's allocation limit (`exec --max-alloc-size`, 1 GiB unless
 * given, on every machine) holds natively too: a request above it returns
 * NULL in the engine, in a sanitizer build (AddressSanitizer's
 * max_allocation_size_mb) and in a build without one (the link's malloc
 * wraps). One at the limit succeeds in all of them. (The engine granted what
 * the machine's memory allowed: a library's 16 GiB buffer it zeroed at no
 * cost took natively longer than the test's timeout.)
 *
 * stdin 'g': malloc of 2 GiB, zeroed; 'c': calloc of 2 x 1 GiB; 'm': malloc
 * of 1 GiB + 1; 'l': malloc of 1 GiB, its first and last bytes written.
 * Exit 3: NULL; 4: granted; anything else: exit 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GIB ((size_t)1 << 30)

static int report(const char *what, char *p, size_t n)
{
	if (!p) {
		printf("%s: NULL\n", what);
		return 3;
	}
	p[0] = 1;
	p[n - 1] = 2;
	printf("%s: granted\n", what);
	free(p);
	return 4;
}

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 0;
	if (c == 'g') {
		char *p = malloc(2 * GIB);
		if (p)
			memset(p, 0, 2 * GIB);
		return report("2 GiB", p, 2 * GIB);
	}
	if (c == 'c')
		return report("calloc 2 x 1 GiB", calloc(2, GIB), 2 * GIB);
	if (c == 'm')
		return report("1 GiB + 1", malloc(GIB + 1), GIB + 1);
	if (c == 'l')
		return report("1 GiB", malloc(GIB), GIB);
	return 0;
}
