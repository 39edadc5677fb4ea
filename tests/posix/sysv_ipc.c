/* System V IPC: the model has no message queues, semaphores or shared
 * memory segments (ENOSYS), and natively the world filter refuses them
 * too, so that a replay takes the engine's path and makes no IPC object on
 * the host (pv's remote control made a message queue natively and waited
 * for a reply the engine's path never waited for).
 *
 * stdin 'm': msgget; 's': semget; 'h': shmget; anything else: exit 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	int r;
	if (c == 'm')
		r = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	else if (c == 's')
		r = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	else if (c == 'h')
		r = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	else
		return 0;
	printf("%c: %s\n", c, r < 0 && errno == ENOSYS ? "no such call" : "went through");
	return r < 0 ? 1 : 2;
}
