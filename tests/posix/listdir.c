/* Listing a directory, as `top` and `ps` list /proc, `rdev` /dev and `ls`
 * the working directory: the engine reads host files, not host directories,
 * so reading one fails with ENOSYS (opening it works), and a native run of a
 * test reads none either, where it would otherwise see the host's processes
 * (busybox `top`: "no process info in /proc", exit 0, in the engine; natively
 * a process list, then a sanitizer report in its sleep). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	const char *dir = c == 'p' ? "/proc" : c == 'd' ? "/dev" : c == '/' ? "/" : ".";
	DIR *d = opendir(dir);
	if (!d) {
		printf("cannot open %s: errno %d\n", dir, errno);
		return 2;
	}
	int n = 0;
	struct dirent *e;
	errno = 0;
	while ((e = readdir(d)))
		if (c != 'p' || isdigit((unsigned char)e->d_name[0]))
			n++;
	int err = errno;
	closedir(d);
	printf("%s: %d entries, errno %d\n", dir, n, err);
	return n ? 1 : 0;
}
