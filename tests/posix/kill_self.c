/* A signal the program sends itself through kill: the model does not
 * deliver it (ENOSYS), and natively the world filter answers the same, so
 * that a replay takes the engine's path (toybox's `kill +0` sent SIGTERM to
 * its own group: natively it was killed, where in the engine kill failed
 * and it exited 1). Probing itself (signal 0) succeeds in both.
 *
 * stdin 't': kill(getpid(), SIGTERM); 'g': kill(0, SIGUSR1); else exit 0. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (kill(getpid(), 0) != 0 || kill(0, 0) != 0)
		return 5;
	int r;
	if (c == 't')
		r = kill(getpid(), SIGTERM);
	else if (c == 'g')
		r = kill(0, SIGUSR1);
	else
		return 0;
	printf("%c: %s\n", c, r < 0 && errno == ENOSYS ? "no such call" : "went through");
	return r < 0 ? 1 : 2;
}
