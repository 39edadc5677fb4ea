/* A parser of file A (argv[1]): an 8-byte header whose hash must be the
 * format's constant, then a record; a record starting "Z!" crashes it. No
 * solver inverts the hash in a test's budget: a seed with a valid header is
 * what reaches the record (cargo-symtest/tests/it/seed_args.rs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned header_hash(const unsigned char *p, int n)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < n; i++) {
		h = (h ^ p[i]) * 0x2c1b3c6du;
		h ^= h >> 15;
		h *= 0x297a2d39u;
		h ^= h >> 13;
	}
	return h;
}

int main(int argc, char **argv)
{
	unsigned char buf[16];
	if (argc < 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 3;
	if (fread(buf, 1, sizeof buf, f) != sizeof buf)
		return 4;
	if (header_hash(buf, 8) != 0x91bb8233u)
		return 5; /* not our format */
	if (buf[8] == 'Z' && buf[9] == '!')
		abort(); /* the bug: a record the parser mishandles */
	puts("ok");
	return 0;
}
