/* A socket, as `ip` (netlink), `nc` and `tc` open one first thing: the model
 * has no network, socket fails with EAFNOSUPPORT (as on a kernel built
 * without networking), and so it does in a native run
 * of a test, which would otherwise list the host's interfaces (busybox `ip
 * a`: exit 0 natively, 1 in the engine). */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	int domain = c == 'n' ? AF_NETLINK : c == 'u' ? AF_UNIX : c == '6' ? AF_INET6 : AF_INET;
	int fd = socket(domain, c == 'n' ? SOCK_RAW : SOCK_DGRAM, 0);
	if (fd < 0) {
		printf("socket: errno %d\n", errno);
		return 1;
	}
	int pair[2];
	if (c == 'p' && socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
		printf("socketpair: errno %d\n", errno);
		return 2;
	}
	printf("socket %d\n", domain);
	return 0;
}
