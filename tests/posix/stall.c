/* Option seeds and a path that stalls: `-f` spins in a loop that covers
 * nothing new for millions of instructions (as `tail -f` waits for its file
 * to grow). The seed `-f` is followed first, then released once it stalls,
 * so the seed `-q` still gets its turn within the budget. */
#include <unistd.h>

int main(int argc, char **argv)
{
	int c, follow = 0, quiet = 0;
	while ((c = getopt(argc, argv, "fq")) != -1) {
		if (c == 'f')
			follow = 1;
		else if (c == 'q')
			quiet = 1;
		else
			return 2;
	}
	if (follow) {
		volatile unsigned n = 0;
		for (unsigned i = 0; i < 3000000; i++)
			n++;
		return 20;
	}
	if (quiet)
		return 10;
	return 0;
}
