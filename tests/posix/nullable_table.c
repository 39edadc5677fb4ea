/* A table pointer kept or made NULL by a multiplication instead of a
 * branch (`(uintptr_t)table * keep`, as a generated library harness makes
 * a nullable pointer) and indexed by a bucket number read from the input,
 * as libtar's `h->table[hp->bucket]`: the pointer is derived from the
 * table, so an index outside the table is an out-of-bounds access, as
 * AddressSanitizer reports it natively. (The engine resolved the address
 * to whatever object held it, a bucket of a few thousand reached another
 * heap object there, and the path exited 0.)
 *
 * stdin: 4 bytes of bucket number, then the keep byte (0 or 1). Exit 0
 * when the slot read is NULL, 1 when it is not; the keep byte above 1 exits
 * 2. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hash {
	int numbuckets;
	long **table;
};

int main(void)
{
	unsigned char in[5];
	if (read(0, in, sizeof in) != sizeof in)
		return 9;
	if (in[4] > 1)
		return 2;
	long *others[4];
	for (int i = 0; i < 4; i++)
		others[i] = calloc(64, sizeof(long));
	struct hash *h = calloc(1, sizeof *h);
	long **table = calloc(16, sizeof *table);
	for (int i = 0; i < 4; i++)
		table[i] = others[i];
	h->numbuckets = 16;
	h->table = (long **)((uintptr_t)table * (uintptr_t)in[4]);
	int bucket;
	memcpy(&bucket, in, sizeof bucket);
	long *slot = h->table[bucket];
	printf("bucket %d: %s\n", bucket, slot ? "set" : "empty");
	return slot != NULL;
}
