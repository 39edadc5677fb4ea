/* symtest POSIX model: KLEE's klee_get_errno when musl is linked in (the
 * engine answers it itself only for programs without a libc). */
#include <errno.h>

int klee_get_errno(void)
{
	return errno;
}
