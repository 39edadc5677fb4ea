/* symtest POSIX model: the state every path starts in, and the program options
 * of KLEE's klee_init_env (--sym-arg, --sym-args, --sym-files, --sym-stdin,
 * --sym-stdout, --max-fail). Objects are created in the contract's order
 * (ENV_CONTRACT.md): arguments, files A, B, ..., stdin, stdout, model_version,
 * then one failure object per system-call class. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

static exe_file empty_stdin;

exe_env __symtest_env = {
	.fds = {
		{ FD_FILE, O_RDONLY, 0, &empty_stdin },
		{ FD_SINK, O_WRONLY, 0, 0 },
		{ FD_SINK, O_WRONLY, 0, 0 },
	},
};

extern char *__progname, *__progname_full;

/* The C library the tests are replayed with (libc-models/musl/src/internal/
 * symtest_glibc.h): musl for a program that injects system-call failures,
 * glibc otherwise, as symtest-project's recipe::libc chooses. */
extern int __symtest_glibc;

static void usage_error(const char *msg)
{
	symtest_report_error("posix-runtime", 0, msg, "user");
}

static int parse_uint(const char *s, const char *opt)
{
	long v = 0;
	if (!s || !*s)
		usage_error(opt);
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			usage_error(opt);
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

static int opt_is(const char *arg, const char *name)
{
	/* KLEE accepts both -name and --name. */
	if (arg[0] != '-')
		return 0;
	arg += arg[1] == '-' ? 2 : 1;
	return strcmp(arg, name) == 0;
}

static char *sym_string(unsigned n, const char *name)
{
	char *s = malloc(n + 1);
	symtest_make_symbolic(s, n + 1, name);
	symtest_assume(s[n] == 0);
	for (unsigned i = 0; i < n; i++)
		symtest_prefer_cex(s, ((unsigned char)s[i] >= 32) & ((unsigned char)s[i] <= 126));
	/* The argument ends at its first NUL, as natively. */
	__symtest_terminated(s);
	return s;
}

static exe_file *sym_file(const char *name, unsigned n, const char *data_name,
                          const char *stat_name)
{
	exe_file *f = __symtest_new_file(name, n);
	symtest_make_symbolic(f->data, n, data_name);
	struct stat *st = malloc(sizeof *st);
	symtest_make_symbolic(st, sizeof *st, stat_name);
	/* A regular file of the given size that its owner can read (the native replay
	 * recreates exactly that); other fields stay free, as in KLEE, but for the
	 * ones below. */
	symtest_assume(st->st_size == (off_t)n);
	symtest_assume((st->st_mode & S_IFMT) == S_IFREG);
	symtest_assume((st->st_mode & ~(mode_t)(S_IFMT | 0777)) == 0);
	symtest_assume((st->st_mode & 0600) == 0600);
	/* Its own device and inode number: the replay's files are distinct from
	 * each other and from the terminal or pipe on stdout, so no two of them
	 * may look like the same file (sort, cat and cp compare them). */
	symtest_assume(st->st_dev == MODEL_DEV);
	symtest_assume(st->st_ino == f->ino);
	/* One link, no device number, owned by the model's user (getuid() is 0):
	 * a fresh file the replay writes is all that, so a program counting
	 * links or comparing the owner decides as it will natively. */
	symtest_assume(st->st_nlink == 1);
	symtest_assume(st->st_rdev == 0);
	symtest_assume((st->st_uid == 0) & (st->st_gid == 0));
	/* The block size and block count a regular file has natively (4 KiB
	 * blocks): programs choose how to skip or buffer by them (od seeks past
	 * an offset only when the file is larger than its block size), and
	 * native replay cannot set them. */
	symtest_assume(st->st_blksize == 4096);
	symtest_assume(st->st_blocks == (blkcnt_t)((n + 4095) / 4096 * 8));
	/* Its times are the model's clock: native replay sets a file's access
	 * and modification times, not the change time, which the kernel keeps
	 * (a program printing it differs). */
	symtest_assume((st->st_atim.tv_sec == 1700000000) & (st->st_atim.tv_nsec == 0));
	symtest_assume((st->st_mtim.tv_sec == 1700000000) & (st->st_mtim.tv_nsec == 0));
	symtest_assume((st->st_ctim.tv_sec == 1700000000) & (st->st_ctim.tv_nsec == 0));
	symtest_prefer_cex(st, (st->st_mode & 0777) == 0644);
	f->st = st;
	return f;
}

static void push(char ***argv, int *argc, int *cap, char *s)
{
	if (*argc + 1 >= *cap) {
		*cap = *cap * 2 + 8;
		*argv = realloc(*argv, (size_t)*cap * sizeof(char *));
	}
	(*argv)[(*argc)++] = s;
	(*argv)[*argc] = 0;
}

void __symtest_posix_init(int *argcp, char ***argvp)
{
	int argc = *argcp;
	char **argv = *argvp;
	int new_argc = 0, cap = 0, sym_args = 0;
	char **new_argv = 0;
	unsigned n_files = 0, file_len = 0, stdin_len = 0;
	int sym_stdout = 0, max_fail = 0;
	char name[8];

	push(&new_argv, &new_argc, &cap, argv[0]);
	for (int k = 1; k < argc; k++) {
		const char *a = argv[k];
		if (opt_is(a, "sym-arg")) {
			if (k + 1 >= argc)
				usage_error("--sym-arg expects N");
			unsigned n = parse_uint(argv[++k], "--sym-arg expects N");
			strcpy(name, "arg00");
			name[3] = '0' + sym_args / 10 % 10;
			name[4] = '0' + sym_args % 10;
			sym_args++;
			push(&new_argv, &new_argc, &cap, sym_string(n, name));
		} else if (opt_is(a, "sym-args")) {
			if (k + 3 >= argc)
				usage_error("--sym-args expects MIN MAX N");
			int lo = parse_uint(argv[k + 1], "--sym-args expects MIN MAX N");
			int hi = parse_uint(argv[k + 2], "--sym-args expects MIN MAX N");
			unsigned n = parse_uint(argv[k + 3], "--sym-args expects MIN MAX N");
			k += 3;
			if (lo > hi)
				usage_error("--sym-args: MIN is larger than MAX");
			int count;
			symtest_make_symbolic(&count, sizeof count, "n_args");
			symtest_assume((count >= lo) & (count <= hi));
			char *args[100];
			if (hi > 100)
				usage_error("--sym-args: at most 100 arguments");
			for (int i = 0; i < hi; i++) {
				strcpy(name, "arg00");
				name[3] = '0' + sym_args / 10 % 10;
				name[4] = '0' + sym_args % 10;
				sym_args++;
				args[i] = sym_string(n, name);
			}
			for (int i = 0; i < hi; i++)
				if (i < count)
					push(&new_argv, &new_argc, &cap, args[i]);
		} else if (opt_is(a, "sym-files")) {
			if (k + 2 >= argc)
				usage_error("--sym-files expects NUM N");
			n_files = parse_uint(argv[k + 1], "--sym-files expects NUM N");
			file_len = parse_uint(argv[k + 2], "--sym-files expects NUM N");
			k += 2;
			if (n_files > 26)
				usage_error("--sym-files: at most 26 files");
		} else if (opt_is(a, "sym-stdin")) {
			if (k + 1 >= argc)
				usage_error("--sym-stdin expects N");
			stdin_len = parse_uint(argv[++k], "--sym-stdin expects N");
		} else if (opt_is(a, "sym-stdout")) {
			sym_stdout = 1;
		} else if (opt_is(a, "max-fail")) {
			if (k + 1 >= argc)
				usage_error("--max-fail expects N");
			max_fail = parse_uint(argv[++k], "--max-fail expects N");
		} else {
			push(&new_argv, &new_argc, &cap, argv[k]);
		}
	}

	__symtest_glibc = max_fail == 0;
	exe_env *e = &__symtest_env;
	for (unsigned i = 0; i < n_files; i++) {
		char fname[2] = { (char)('A' + i), 0 };
		char data[16], stat_name[16];
		strcpy(data, fname);
		strcat(data, "-data");
		strcpy(stat_name, data);
		strcat(stat_name, "-stat");
		sym_file(fname, file_len, data, stat_name);
	}
	e->n_sym_files = n_files;
	if (stdin_len) {
		e->sym_stdin = sym_file(0, stdin_len, "stdin", "stdin-stat");
		e->fds[0].file = e->sym_stdin;
	}
	if (sym_stdout) {
		e->sym_stdout = sym_file(0, 1024, "stdout", "stdout-stat");
		e->fds[1].kind = FD_FILE;
		e->fds[1].file = e->sym_stdout;
	}
	int version;
	symtest_make_symbolic(&version, sizeof version, "model_version");
	symtest_assume(version == 1);
	if (max_fail > 0) {
		static const char *names[8] = {
			"read_fail", "write_fail", "close_fail", "open_fail",
			"lseek_fail", "stat_fail", "getcwd_fail", "dup_fail",
		};
		for (int i = 0; i < 8; i++) {
			symtest_make_symbolic(&e->fail_at[i], sizeof(int), names[i]);
			symtest_assume(e->fail_at[i] >= 0);
		}
		e->max_fail = max_fail;
	}

	/* The environment (__environ) is the engine's fixed one, as natively. */
	__progname_full = __progname = new_argv[0];
	for (char *p = new_argv[0]; *p; p++)
		if (*p == '/')
			__progname = p + 1;
	*argcp = new_argc;
	*argvp = new_argv;
	e->counting = 1;
}

/* Counts a system call of class `cls` and decides whether it fails (--max-fail):
 * it fails when the class's failure object equals its running count and the path
 * has failures left. Paths out of failures pin the object away from the count, so
 * the native replay never fails a call the engine did not. */
int __symtest_should_fail(int cls)
{
	exe_env *e = &__symtest_env;
	if (!e->counting || e->max_fail == 0)
		return 0;
	int k = (int)++e->calls[cls];
	if (e->fails_used >= e->max_fail) {
		symtest_assume(e->fail_at[cls] != k);
		return 0;
	}
	if (e->fail_at[cls] == k) {
		e->fails_used++;
		return 1;
	}
	return 0;
}

void __symtest_prefer_unused_fail_zero(void)
{
	exe_env *e = &__symtest_env;
	if (e->max_fail == 0)
		return;
	/* Satisfiable on every path: the failed call's index, or 0. */
	for (int i = 0; i < 8; i++)
		symtest_prefer_cex(&e->fail_at[i], e->fail_at[i] <= (int)e->calls[i]);
}
