/* A program that takes SIGSYS for itself and blocks every signal, then opens
 * and copies a file: pv ignores SIGSYS (for msgget) and its native runs died
 * of the next call the model's world filter traps (killed by SIGSYS, 49 of
 * its tests). The filter keeps SIGSYS its own: the program's disposition is
 * recorded and reported back, and no mask it sets blocks SIGSYS. Its copy
 * first tries the kernel's (sendfile, as `cat` and `pv` do): the model has
 * none, and natively it fails the same way (ENOSYS), so both fall back to
 * read and write.
 *
 * stdin's byte chooses: 'i' ignores SIGSYS, 'h' sets a handler, 'b' blocks
 * every signal, anything else does none of it. (The model keeps no signal
 * dispositions or masks: a program's own checks of them are not compared.) */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/sendfile.h>
#include <unistd.h>

static void on_sys(int s)
{
	(void)s;
	_exit(70);
}

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 'i') {
		signal(SIGSYS, SIG_IGN);
	} else if (c == 'h') {
		signal(SIGSYS, on_sys);
	} else if (c == 'b') {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, 0);
	}
	int fd = open("A", O_RDONLY);
	if (fd < 0) {
		printf("open: errno %d\n", errno);
		return 1;
	}
	if (sendfile(1, fd, 0, 4) >= 0)
		return 5;
	int sendfile_errno = errno;
	char buf[4];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n < 0)
		return 2;
	printf("sendfile: errno %d, read %d byte(s)\n", sendfile_errno, (int)n);
	return 0;
}
