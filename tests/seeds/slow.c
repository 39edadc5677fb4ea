/* A checker of file A (argv[1]) that does a long computation before it
 * looks at the file's first bytes: natively a fraction of a second, in the
 * engine far longer than a short budget. A seed's run then never ends
 * inside the engine; its test is written all the same, so the native replay
 * covers what the seed's run covers (cargo-symtest/tests/it/seed_args.rs). */
#include <stdio.h>

int main(int argc, char **argv)
{
	unsigned char buf[8] = {0};
	if (argc < 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 3;
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	unsigned long sum = 0;
	for (unsigned long i = 0; i < 40000000ul; i++)
		sum += i ^ buf[i & 7];
	if (n >= 2 && buf[0] == 'o' && buf[1] == 'k') {
		printf("ok %lu\n", sum & 1);
		return 0;
	}
	printf("no %lu\n", sum & 1);
	return 1;
}
