/* Resource limits: the model reports fixed limits (1024 descriptors; an
 * 8 MiB stack, no hard limit; everything else unlimited) and changes none
 * (EPERM), and natively the world filter answers the same, so that a
 * replay takes the engine's path whatever the host's limits are (pcretest
 * -S 0 lowered its stack limit natively and went on, where the engine's
 * setrlimit failed and it exited 1).
 *
 * stdin 's': setrlimit; 'p': prlimit with a new limit; 'n': the descriptor
 * limits; 'k': the stack's soft limit; anything else: exit 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	struct rlimit r;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 's' || c == 'p') {
		int rc;
		r.rlim_cur = 0;
		r.rlim_max = RLIM_INFINITY;
		if (c == 's')
			rc = setrlimit(RLIMIT_STACK, &r);
		else
			rc = prlimit(0, RLIMIT_CORE, &r, NULL);
		printf("%c: %s\n", c, rc < 0 && errno == EPERM ? "not changed" : "changed");
		return rc < 0 ? 1 : 2;
	}
	if (c == 'n') {
		if (getrlimit(RLIMIT_NOFILE, &r) != 0)
			return 3;
		printf("n: %llu %llu\n", (unsigned long long)r.rlim_cur, (unsigned long long)r.rlim_max);
		return 0;
	}
	if (c == 'k') {
		if (getrlimit(RLIMIT_STACK, &r) != 0)
			return 3;
		printf("k: %llu %s\n", (unsigned long long)r.rlim_cur,
		       r.rlim_max == RLIM_INFINITY ? "unlimited" : "limited");
		return 0;
	}
	return 0;
}
