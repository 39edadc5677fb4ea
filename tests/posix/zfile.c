/* zfile MODE FILE: replaces FILE by FILE.z the way gzip, bzip2, xz and
 * compress do. It reads FILE, creates FILE.z (O_CREAT|O_EXCL, mode 0600),
 * writes 'Z' and the bytes of FILE each xor 0x20, copies FILE's mode, owner
 * and times to it (fchmod, fchown, futimens), closes it, checks its metadata
 * with stat and removes FILE.
 *   MODE 'r': FILE.z is reserved first (an empty file), the data goes to
 *             FILE.z.tmp, which is renamed over it (replacing it).
 *   MODE 'k': FILE keeps a second name, FILE.orig (link), before it is
 *             removed; the link counts are checked on the way.
 * On any failure before A is removed the partial output is removed and the
 * exit status is 1; an input already compressed (starting with 'Z') is
 * refused with status 2. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char out_name[256], tmp_name[256], orig_name[256];
/* What to remove when something fails. */
static const char *partial[3];

static int fail(const char *what)
{
	int e = errno;
	for (int i = 0; i < 3; i++)
		if (partial[i])
			unlink(partial[i]);
	printf("zfile: %s failed (errno %d)\n", what, e);
	return 1;
}

static int links_of(const char *name)
{
	struct stat st;
	return stat(name, &st) == 0 ? (int)st.st_nlink : -1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		puts("usage: zfile MODE FILE");
		return 2;
	}
	char mode = argv[1][0];
	const char *in_name = argv[2];
	snprintf(out_name, sizeof out_name, "%s.z", in_name);
	snprintf(tmp_name, sizeof tmp_name, "%s.z.tmp", in_name);
	snprintf(orig_name, sizeof orig_name, "%s.orig", in_name);

	int in = open(in_name, O_RDONLY);
	if (in < 0)
		return fail("open input");
	struct stat st;
	if (fstat(in, &st) != 0)
		return fail("fstat input");
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
		printf("zfile: %s: not a regular file with one link\n", in_name);
		return 2;
	}
	unsigned char buf[64], out[65];
	ssize_t n = read(in, buf, sizeof buf);
	if (n < 0)
		return fail("read input");
	if (close(in) != 0)
		return fail("close input");
	if (n > 0 && buf[0] == 'Z') {
		printf("zfile: %s: already compressed\n", in_name);
		return 2;
	}
	out[0] = 'Z';
	for (ssize_t i = 0; i < n; i++)
		out[i + 1] = buf[i] ^ 0x20;

	int fd;
	if (mode == 'r') {
		/* Reserve the final name, write a temporary one, rename it over. */
		fd = open(out_name, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return fail("reserve output");
		partial[0] = out_name;
		if (close(fd) != 0)
			return fail("close reserved output");
		fd = open(tmp_name, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return fail("create temporary");
		partial[1] = tmp_name;
	} else {
		/* A file that exists is someone else's: it is not removed. */
		fd = open(out_name, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return fail("create output");
		partial[0] = out_name;
	}
	if (write(fd, out, (size_t)n + 1) != n + 1)
		return fail("write output");
	if (fchmod(fd, st.st_mode & 07777) != 0)
		return fail("fchmod");
	if (fchown(fd, st.st_uid, st.st_gid) != 0)
		return fail("fchown");
	struct timespec times[2] = { st.st_atim, st.st_mtim };
	if (futimens(fd, times) != 0)
		return fail("futimens");
	if (close(fd) != 0)
		return fail("close output");
	if (mode == 'r') {
		if (rename(tmp_name, out_name) != 0)
			return fail("rename");
		partial[1] = 0;
		if (access(tmp_name, F_OK) == 0) {
			printf("zfile: %s is still there\n", tmp_name);
			return fail("rename");
		}
	}

	struct stat o;
	if (stat(out_name, &o) != 0)
		return fail("stat output");
	if (o.st_size != n + 1 || (o.st_mode & 07777) != (st.st_mode & 07777) ||
	    o.st_uid != st.st_uid || o.st_gid != st.st_gid || o.st_nlink != 1 ||
	    o.st_mtim.tv_sec != st.st_mtim.tv_sec || o.st_atim.tv_sec != st.st_atim.tv_sec) {
		printf("zfile: %s: metadata differs\n", out_name);
		return fail("copying metadata");
	}

	if (mode == 'k') {
		if (link(in_name, orig_name) != 0)
			return fail("link");
		partial[2] = orig_name;
		if (links_of(in_name) != 2 || links_of(orig_name) != 2) {
			printf("zfile: %s: expected 2 links\n", in_name);
			return fail("link");
		}
	}
	if (unlink(in_name) != 0)
		return fail("unlink input");
	/* A is gone: the finished output and A.orig stay. */
	if (mode == 'k' && links_of(orig_name) != 1) {
		printf("zfile: %s: expected 1 link\n", orig_name);
		return 1;
	}
	printf("%s -> %s\n", in_name, out_name);
	return 0;
}
