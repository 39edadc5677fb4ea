/* Signals to other processes: the model's world has one process, so kill of
 * another pid (the argument's digit: 1, init, is alive on the host), or of
 * every process (-1), fails with ESRCH in the engine and natively alike;
 * probing the program itself (its pid, or 0: its group) succeeds.
 * pv -d PID waits while kill(PID, 0) succeeds: natively it watched the
 * host's init for ever, where the engine said "no such process". */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] < '0' || argv[1][0] > '9')
		return 2;
	if (kill(getpid(), 0) != 0 || kill(0, 0) != 0)
		return 5;
	if (kill(-1, 0) == 0 || errno != ESRCH)
		return 6;
	pid_t pid = argv[1][0] - '0';
	if (kill(pid, 0) == 0) {
		printf("%d is alive\n", (int)pid);
		return 0;
	}
	if (errno == ESRCH) {
		printf("no process %d\n", (int)pid);
		return 3;
	}
	return 4;
}
