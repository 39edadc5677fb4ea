/* A path built from getcwd() names the working directory's files, as sqlite
 * names its database ("<cwd>/A", and "<cwd>/A-journal" beside it): reading,
 * creating beside the input, renaming over it and stat() of the directory
 * itself go to the same files in the engine as natively (the model answered
 * ENOENT for "/symtest/A", and sqlite3 exited 1 where natively it ran). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char cwd[4096];

static const char *at_cwd(const char *name)
{
	static char p[2][4200];
	static int k;
	k ^= 1;
	snprintf(p[k], sizeof p[k], "%s/%s", cwd, name);
	return p[k];
}

static int first_byte(const char *path)
{
	unsigned char b = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	int n = (int)read(fd, &b, 1);
	close(fd);
	return n == 1 ? b : -1000;
}

int main(void)
{
	char c = 0;
	if (!getcwd(cwd, sizeof cwd))
		return 8;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 'r') {
		printf("%s\n", first_byte(at_cwd("A")) == first_byte("A") ? "same file" : "other files");
		return 0;
	}
	if (c == 'd') {
		struct stat st;
		int r = stat(cwd, &st);
		printf("stat cwd: %d, directory: %d\n", r, r == 0 && S_ISDIR(st.st_mode));
		return 0;
	}
	if (c == 'w') {
		/* A new file beside the input, then over it, as an in-place rewrite does. */
		int fd = open(at_cwd("A.new"), O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0) {
			printf("create: errno %d\n", errno);
			return 1;
		}
		if (write(fd, "x", 1) != 1)
			return 3;
		close(fd);
		if (rename(at_cwd("A.new"), at_cwd("A")) != 0) {
			printf("rename: errno %d\n", errno);
			return 1;
		}
		printf("A: %d, A.new: %d\n", first_byte("A"), first_byte("A.new"));
		return 0;
	}
	if (c == 'u') {
		int r = unlink(at_cwd("A"));
		printf("unlink: %d, A: %d\n", r, first_byte("A"));
		return 0;
	}
	return 2;
}
