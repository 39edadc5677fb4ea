/* --max-fail counts system calls per class, failed ones included: read #1 and
 * read #2 of stdin, then close of a descriptor that was never open (EBADF
 * unless the model fails it with EIO). */
#include <errno.h>
#include <unistd.h>

int main(void)
{
	char b[2];
	if (read(0, b, 1) < 0)
		return 10;
	if (read(0, b, 1) < 0)
		return 20;
	if (close(99) == -1 && errno == EIO)
		return 30;
	if (b[0] == 'x')
		return 1;
	return 0;
}
