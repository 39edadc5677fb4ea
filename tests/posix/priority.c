/* The scheduling priority: the model reports nice 0 and changes no
 * priority (EPERM), and natively the world filter answers the same, so that
 * a replay takes the engine's path whatever the host allows (toybox's
 * `nice CMD` failed with "Can't set priority" in the engine, and natively
 * raised its niceness and went on to run the command).
 *
 * stdin 'n': nice(10); 's': setpriority; 'g': getpriority; else exit 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 'n' || c == 's') {
		errno = 0;
		int failed = c == 'n' ? nice(10) == -1 && errno : setpriority(PRIO_PROCESS, 0, 5) != 0;
		printf("%c: %s\n", c, failed && errno == EPERM ? "not changed" : "changed");
		return failed ? 1 : 2;
	}
	if (c == 'g') {
		errno = 0;
		int p = getpriority(PRIO_PROCESS, 0);
		printf("g: %d%s\n", p, errno ? " (failed)" : "");
		return 0;
	}
	return 0;
}
