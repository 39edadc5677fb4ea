/* The working directory is the test's own: its mode and times may be set,
 * in the engine as in a native run (each in a fresh directory of its own).
 * libtar extracted an entry named "." and set its mode. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

int main(void)
{
	printf("chmod .: %d\n", chmod(".", 0700));
	printf("chmod ./: %d\n", chmod("./", 0700));
	printf("utimensat .: %d\n", utimensat(AT_FDCWD, ".", NULL, 0));
	printf("chmod missing: %d\n", chmod("missing", 0700));
	return 0;
}
