/* A program that takes the interval timer and SIGALRM for itself, as pv does
 * for its display updates, then waits without end: the suite's own timeout
 * (the child's SIGALRM) never ends it, so the runner must (the suite waited
 * for ever). The engine sees the wait block and stops that path early. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t ticks;

static void tick(int sig)
{
	(void)sig;
	ticks++;
}

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 1;
	if (c != 'w') {
		printf("no wait\n");
		return 0;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tick;
	sigaction(SIGALRM, &sa, 0);
	struct itimerval t = { { 0, 100000 }, { 0, 100000 } };
	setitimer(ITIMER_REAL, &t, 0);
	for (;;)
		poll(0, 0, -1);
}
