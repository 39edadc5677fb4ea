/* A table read elements before its start, as libtar's hash iterator does
 * with a negative bucket count (`h->table[hp->bucket]`, bucket -21):
 * natively, under AddressSanitizer, the address is in a redzone or in
 * memory no chunk holds, an error. The engine leaves a page free after
 * every heap object, so the read lands in no object and is a `ptr` error
 * there too (with 64 bytes between objects, it read the struct allocated
 * just before the table, and the path exited 1).
 *
 * stdin 'b': the read 10 elements before the table; a digit: that bucket;
 * anything else: exit 2. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct hash {
	int numbuckets;
	long **table;
};

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	struct hash *h = calloc(1, sizeof *h);
	h->numbuckets = 10;
	h->table = calloc(16, sizeof *h->table);
	int bucket = c == 'b' ? -10 : c - '0';
	if (c != 'b' && (bucket < 0 || bucket >= h->numbuckets))
		return 2;
	long *slot = h->table[bucket];
	printf("bucket %d: %p\n", bucket, (void *)slot);
	return c == 'b';
}
