/* Host devices and /proc, as the model has them: opening a device, FIFO or
 * socket fails with EACCES (/dev/null opens, empty), and a file of /proc,
 * whose size is 0, reads as empty; a pseudo-file system's file opens
 * read-only. A native run of a test answers the same, where it would
 * otherwise open the host's console (busybox `beep`: exit 0 natively, 1 in
 * the engine) or read its /proc/stat (`top`). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	const char *path = c == 'z' ? "/dev/zero" : c == 'c' ? "/dev/console" : c == 't' ? "/dev/tty"
	                 : c == 'n' ? "/dev/null" : c == 's' ? "/proc/stat" : c == 'h' ? "/proc/sys/kernel/hostname"
	                 : 0;
	if (!path)
		return 0;
	int fd = open(path, c == 'h' ? O_WRONLY : c == 'c' ? O_RDWR : O_RDONLY);
	if (fd < 0) {
		printf("%s: errno %d\n", path, errno);
		return 1;
	}
	if (c == 'z' || c == 'c' || c == 't') {
		printf("%s: opened\n", path); /* natively, reading the console would wait */
		return 4;
	}
	char buf[64];
	long n = read(fd, buf, sizeof buf);
	printf("%s: read %ld\n", path, n);
	return n > 0 ? 3 : 2;
}
