/* A recursion bound measured on the stack, as toybox's multiplexer keeps one
 * (`labs(stacktop - &local) > 6000`: it runs a command in the same process
 * only while the stack is shallow, else it execs). Natively the frames of
 * returned calls give their addresses back to the next calls, so the
 * distance from main's local is what the live frames hold, however many
 * calls came before; the engine reuses a returned frame's addresses too
 * (before, every call's locals took fresh addresses and the bound tripped
 * after enough calls: toybox's `su` exited 126 in the engine, natively it
 * ran its command). A pointer to a returned frame's local still lands in
 * no object until a later call's stack covers it
 * (tests/programs/err_stack_after_return.c).
 *
 * stdin 'd': the depth check after many calls (exit 0, "shallow"); anything
 * else: exit 0 quietly. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *stacktop;

/* A frame with a few locals whose addresses are taken (so they are memory). */
static int work(int n)
{
	char buf[48];
	int k = n;
	int *p = &k;
	for (int i = 0; i < (int)sizeof buf; i++)
		buf[i] = (char)(i + *p);
	return buf[n % (int)sizeof buf];
}

static int shallow(void)
{
	char here;
	return labs((long)stacktop - (long)&here) <= 6000;
}

int main(void)
{
	char start;
	stacktop = &start;
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 'd') {
		int sum = 0;
		for (int i = 0; i < 300; i++)
			sum += work(i);
		if (!shallow()) {
			printf("deep after %d\n", sum & 1);
			return 1;
		}
		printf("shallow\n");
		return 0;
	}
	return 0;
}
