/* A program that sets its credentials, as toybox's `su` does before running
 * the shell (initgroups, setgid, setuid): the model's user is root, which may
 * set them, as natively for root (the calls failed with ENOSYS in the model:
 * `su` exited 1 where natively it went on to exec the shell, 126). */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 's') {
		if (initgroups("root", 0) != 0 || setgid(0) != 0 || setuid(0) != 0) {
			printf("cannot set the credentials\n");
			return 1;
		}
		gid_t groups[64];
		int n = getgroups(64, groups);
		uid_t r, e, s;
		if (getresuid(&r, &e, &s) != 0)
			return 2;
		printf("uid %u %u %u, gid %u, groups %s\n", (unsigned)r, (unsigned)e, (unsigned)s,
		       (unsigned)getgid(), n >= 1 && groups[0] == 0 ? "from 0" : "other");
		return 0;
	}
	if (c == 'g') {
		gid_t none[1] = {0};
		if (setgroups(1, none) != 0)
			return 3;
		printf("groups %d\n", getgroups(0, none));
		return 0;
	}
	return 4;
}
