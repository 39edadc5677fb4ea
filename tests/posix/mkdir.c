/* An unmodelled system call (mkdir) fails with ENOSYS; the program goes on. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

int main(void)
{
	if (mkdir("out", 0755) != 0 && errno == ENOSYS) {
		if (mkdir("out2", 0755) != 0 && errno == ENOSYS)
			return 7;
	}
	return 0;
}
