/* A null table indexed far from its start, as libtar's hash iterator does
 * with a table left null and a bucket number of about 2^25
 * (`h->table[hp->bucket]`): natively the address, a few hundred MiB above
 * zero, is mapped by nothing and the read faults. The engine's globals lie
 * far above any address a null pointer plus a 32-bit index reaches, so the
 * read lands in no object and is a `ptr` error there too (when globals
 * started at 256 MiB, the read returned a byte of the program's counts and
 * the path exited 0).
 *
 * stdin 'n': the read through the null table (an error, natively SIGSEGV);
 * anything else: exit 0. */
#include <stdio.h>
#include <unistd.h>

long counts[8192] = {1};

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	counts[1] = c;
	if (c == 'n') {
		long **table = NULL;
		unsigned bucket = 0x10000000u / sizeof *table + 1024;
		long *slot = table[bucket];
		printf("slot %p\n", (void *)slot);
		return 1;
	}
	return 0;
}
