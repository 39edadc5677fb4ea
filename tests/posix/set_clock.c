/* Setting the clock: the model has no such call (ENOSYS), and natively the
 * host's clock is not the program's either: the world filter refuses the
 * calls that set or adjust it (as root, a replay of toybox's `date 0:0`
 * set the host's clock, where the engine had recorded "cannot set date").
 * Both calls here would change nothing natively even unfiltered (the
 * monotonic clock cannot be set, and modes 0 only reads).
 *
 * stdin 'c': clock_settime; 'a': adjtimex; anything else: exit 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	int r;
	if (c == 'c') {
		struct timespec ts = { 1, 0 };
		r = clock_settime(CLOCK_MONOTONIC, &ts);
	} else if (c == 'a') {
		struct timex tx;
		memset(&tx, 0, sizeof tx);
		r = adjtimex(&tx);
	} else {
		return 0;
	}
	printf("%c: %s\n", c, r < 0 && errno == ENOSYS ? "no such call" : "went through");
	return r < 0 ? 1 : 2;
}
