/* symtest's seed recorder: it stands in for a program while the project's
 * own tests run (symtest-project/src/seeds/record.rs puts it in place of the
 * executable and puts the program back afterwards). Each run records, in a
 * directory of its own under SYMTEST_RECORDS:
 *   argv     the arguments, each followed by a NUL (argv[0] included)
 *   cwd      the working directory
 *   environ  the environment, each entry followed by a NUL
 *   files    one line per argument naming an existing regular file (the word
 *            itself, or the part after `=` of `-x=FILE` / `--opt=FILE`):
 *            "K OFFSET ok" or "K OFFSET unreadable REASON"
 *   arg-K    that file's first SYMTEST_MAX + 1 bytes
 *   stdin    the first SYMTEST_MAX + 1 bytes of stdin, when it is a regular
 *            file, a pipe or a socket (not a terminal)
 * then execs the real program (SYMTEST_REAL) with the same argv and the same
 * stdin: a regular file is read in place and its offset left as it was; the
 * bytes read from a pipe are fed again through a new pipe, followed by the
 * rest of the stream. A record is written as `.tmp-XXXXXX` and renamed
 * `run-XXXXXX` once complete. Nothing here ever stops the program from
 * running: a record that cannot be written is left incomplete.
 *
 * SYMTEST_REAL, SYMTEST_RECORDS (string literals) and SYMTEST_MAX (a number)
 * are defined before this text. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Found in the executable by `record.rs` (a wrapper left by an interrupted
 * run is recognised and the program put back). */
const char symtest_seed_wrapper_marker[] = "symtest-seed-wrapper-v1";

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int write_file(const char *dir, const char *name, const char *p, size_t n)
{
	char path[4096];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
		return -1;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int r = write_all(fd, p, n);
	return close(fd) == 0 ? r : -1;
}

/* Reads up to `max` bytes (to EOF or `max`); -1 on an error before any byte. */
static ssize_t read_up_to(int fd, char *buf, size_t max)
{
	size_t n = 0;
	while (n < max) {
		ssize_t r = read(fd, buf + n, max - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return n ? (ssize_t)n : -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

/* A list of NUL-terminated strings as one buffer. */
static int write_strings(const char *dir, const char *name, char *const *v)
{
	size_t len = 0;
	for (int i = 0; v[i]; i++)
		len += strlen(v[i]) + 1;
	char *buf = malloc(len + 1);
	if (!buf)
		return -1;
	size_t at = 0;
	for (int i = 0; v[i]; i++) {
		size_t l = strlen(v[i]) + 1;
		memcpy(buf + at, v[i], l);
		at += l;
	}
	int r = write_file(dir, name, buf, at);
	free(buf);
	return r;
}

/* The part of an argument that may name a file: the word, or what follows
 * `=` in an option. */
static const char *path_in(const char *w)
{
	if (w[0] == '-') {
		const char *eq = strchr(w, '=');
		return eq && eq[1] ? eq + 1 : 0;
	}
	return w[0] ? w : 0;
}

static int record_files(const char *dir, int argc, char **argv, char *buf)
{
	char line[600];
	char *manifest = 0;
	size_t mlen = 0;
	FILE *m = open_memstream(&manifest, &mlen);
	if (!m)
		return -1;
	for (int k = 1; k < argc; k++) {
		const char *p = path_in(argv[k]);
		struct stat st;
		if (!p || stat(p, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		size_t offset = (size_t)(p - argv[k]);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read_up_to(fd, buf, (size_t)SYMTEST_MAX + 1);
		if (n < 0) {
			fprintf(m, "%d %zu unreadable %s\n", k, offset, strerror(errno));
		} else {
			snprintf(line, sizeof line, "arg-%d", k);
			if (write_file(dir, line, buf, (size_t)n) != 0) {
				fclose(m);
				free(manifest);
				if (fd >= 0)
					close(fd);
				return -1;
			}
			fprintf(m, "%d %zu ok\n", k, offset);
		}
		if (fd >= 0)
			close(fd);
	}
	if (fclose(m) != 0)
		return -1;
	int r = write_file(dir, "files", manifest, mlen);
	free(manifest);
	return r;
}

/* Closes every descriptor above 2 but `keep`. */
static void close_others(int keep)
{
	for (int fd = 3; fd < 4096; fd++)
		if (fd != keep)
			close(fd);
}

/* Makes fd 0 a pipe delivering `n` bytes of `buf`, then (when `more`) the
 * rest of the old stdin: directly when the bytes fit the pipe and nothing
 * follows, else through a detached process (a grandchild, so the program
 * never sees a child of its own). */
static void refeed_stdin(const char *buf, size_t n, int more)
{
	int p[2];
	if (pipe(p) != 0)
		return;
	int cap = fcntl(p[1], F_GETPIPE_SZ);
	if (!more && cap > 0 && n <= (size_t)cap) {
		if (write_all(p[1], buf, n) == 0) {
			close(p[1]);
			dup2(p[0], 0);
			close(p[0]);
			return;
		}
		close(p[0]);
		close(p[1]);
		return;
	}
	pid_t c = fork();
	if (c == 0) {
		if (fork() == 0) {
			close(p[0]);
			close(1);
			close(2);
			close_others(p[1]);
			signal(SIGPIPE, SIG_DFL);
			if (write_all(p[1], buf, n) != 0)
				_exit(0);
			char chunk[65536];
			for (;;) {
				ssize_t r = read(0, chunk, sizeof chunk);
				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0 || write_all(p[1], chunk, (size_t)r) != 0)
					break;
			}
			_exit(0);
		}
		_exit(0);
	}
	if (c > 0) {
		int status;
		while (waitpid(c, &status, 0) < 0 && errno == EINTR) {
		}
		close(p[1]);
		dup2(p[0], 0);
		close(p[0]);
		return;
	}
	close(p[0]);
	close(p[1]);
}

/* Records stdin into `dir` (see above) and leaves fd 0 as the program must
 * find it. Returns -1 when the record could not be written. */
static int record_stdin(const char *dir, char *buf)
{
	struct stat st;
	if (isatty(0) || fstat(0, &st) != 0)
		return 0;
	size_t max = (size_t)SYMTEST_MAX + 1;
	if (S_ISREG(st.st_mode)) {
		off_t at = lseek(0, 0, SEEK_CUR);
		size_t n = 0;
		while (at >= 0 && n < max) {
			ssize_t r = pread(0, buf + n, max - n, at + (off_t)n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		return write_file(dir, "stdin", buf, n);
	}
	if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
		return 0;
	ssize_t n = read_up_to(0, buf, max);
	if (n < 0)
		return 0;
	int r = write_file(dir, "stdin", buf, (size_t)n);
	refeed_stdin(buf, (size_t)n, (size_t)n == max);
	return r;
}

static void record(int argc, char **argv, char **envp)
{
	char tmp[4096], done[4096];
	if (snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", SYMTEST_RECORDS) >= (int)sizeof tmp)
		return;
	if (!mkdtemp(tmp))
		return;
	char *buf = malloc((size_t)SYMTEST_MAX + 1);
	if (!buf)
		return;
	char cwd[4096];
	int bad = write_strings(tmp, "argv", argv) != 0;
	if (getcwd(cwd, sizeof cwd))
		bad |= write_file(tmp, "cwd", cwd, strlen(cwd)) != 0;
	bad |= write_strings(tmp, "environ", envp) != 0;
	bad |= record_files(tmp, argc, argv, buf) != 0;
	bad |= record_stdin(tmp, buf) != 0;
	free(buf);
	if (bad)
		return;
	const char *suffix = tmp + strlen(tmp) - 6;
	if (snprintf(done, sizeof done, "%s/run-%s", SYMTEST_RECORDS, suffix) < (int)sizeof done)
		rename(tmp, done);
}

int main(int argc, char **argv, char **envp)
{
	(void)symtest_seed_wrapper_marker[0];
	record(argc, argv, envp);
	execv(SYMTEST_REAL, argv);
	dprintf(2, "symtest seed recorder: cannot run %s: %s\n", SYMTEST_REAL, strerror(errno));
	return 127;
}
