/* A value built by a long chain of symbolic arithmetic (a hash over 100,000
 * input bytes): an expression 200,000 operations deep. The engine's walks
 * over such an expression recurse as deep as it is, past a main thread's
 * 8 MiB of stack (the engine died with "stack overflow" on a real program's
 * loop): it runs on a thread with a larger stack.
 *
 * The branch on the hash is a digest branch (deeper than --digest-depth): it
 * follows the input's model, so one path, which replays natively. */
#include "symtest.h"

int main(void)
{
	unsigned char in[8];
	symtest_make_symbolic(in, sizeof in, "in");
	unsigned h = 0;
	for (int i = 0; i < 100000; i++)
		h = h * 31 + in[i % 8];
	if (h == 12345u)
		return 1;
	return 0;
}
// EXPECT-PATHS: 1
// EXPECT-NO-ERRORS
