/* The groups of a user, as `id root` and `su` (toybox) ask for them:
 * getgrouplist (and initgroups, which calls it). musl, the engine's C
 * library, asks nscd over a Unix socket first and reads /etc/group when the
 * socket's address family is not supported; the model has no network, and
 * its socket fails as on a kernel built without networking (EAFNOSUPPORT),
 * so the list is read from /etc/group in the engine as natively (glibc). */
#define _DEFAULT_SOURCE
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	gid_t groups[64];
	int n = 64;
	/* root is in the group list of every Linux system (its own group). */
	const char *user = c == 'g' ? "root" : "no-such-user-here";
	int r = getgrouplist(user, 0, groups, &n);
	if (r < 0) {
		printf("getgrouplist failed\n");
		return 1;
	}
	printf("groups of %s: %s\n", c == 'g' ? "root" : "nobody", r >= 1 && groups[0] == 0 ? "found" : "none");
	return 0;
}
