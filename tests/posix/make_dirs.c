/* Directories: the model has no mkdir, mkdirat or rmdir (ENOSYS), and
 * natively the world filter refuses them too, so that a replay takes the
 * engine's path (libtar's mkdirhier(".") failed with ENOSYS in the engine
 * and went on natively with EEXIST, into a null hash table the engine's
 * path never reached).
 *
 * stdin '.': mkdir("."); 'd': mkdir("d"); 'a': mkdirat of "e"; 'r':
 * rmdir("."); anything else: exit 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	int r;
	if (c == '.')
		r = mkdir(".", 0777);
	else if (c == 'd')
		r = mkdir("d", 0777);
	else if (c == 'a')
		r = mkdirat(AT_FDCWD, "e", 0777);
	else if (c == 'r')
		r = rmdir(".");
	else
		return 0;
	printf("%c: %s\n", c, r < 0 && errno == ENOSYS ? "no such call" : "went through");
	return r < 0 ? 1 : 2;
}
