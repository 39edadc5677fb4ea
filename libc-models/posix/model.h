/* symtest POSIX model (paper §4.1): the system calls beneath musl, executed as
 * ordinary program code, so each state has its own file descriptors and files. */
#ifndef SYMTEST_POSIX_MODEL_H
#define SYMTEST_POSIX_MODEL_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MAX_FDS 32
#define MAX_FILES 64

/* A file's contents: a symbolic file (A, B, ..., stdin), a read-only copy of a
 * host file, a file the program created, or a pipe buffer. */
typedef struct exe_file {
	char *name;          /* NULL for stdin/stdout/pipes; unlinked files too */
	unsigned char *data;
	size_t size, cap;
	struct stat *st;     /* symbolic for symbolic files */
	int writable;        /* created by the program */
	int host;            /* a read-only copy of a host file */
	int is_dir;
	int special;         /* a host device, FIFO or socket: stat only */
	unsigned long ino;   /* its inode number on MODEL_DEV (not a host file) */
	/* A second name made by link(): this entry only carries the name, the
	 * file is `link` (find_file resolves it). */
	struct exe_file *link;
	/* What the program set (chmod, chown, utimensat, link/unlink) or what a
	 * file it created starts with; stat reports it over `st` (META_*). */
	unsigned meta;
	int nlink;           /* its names (META_NLINK) */
	mode_t mode;         /* permission bits (META_MODE) */
	uid_t uid;           /* META_UID */
	gid_t gid;           /* META_GID */
	struct timespec atime, mtime; /* META_ATIME, META_MTIME */
} exe_file;

enum { META_NLINK = 1, META_MODE = 2, META_UID = 4, META_GID = 8, META_ATIME = 16, META_MTIME = 32 };

/* The model's clock (every clock reads it; the times of the files it makes). */
#define MODEL_TIME 1700000000L
/* The model's umask (what umask() returns). */
#define MODEL_UMASK 022

/* The device of the model's own files (symbolic and created ones), each with
 * an inode number of its own: no host file, terminal or pipe shares one with
 * them, so a program comparing two files' (st_dev, st_ino) sees what it would
 * natively, where each file the replay makes is distinct. */
#define MODEL_DEV 0x53594dUL

/* FD_INOTIFY: an inotify instance (inotify_init1); nothing in the model ever
 * changes a watched file, so it never has an event to read. */
enum fd_kind { FD_CLOSED, FD_FILE, FD_SINK, FD_PIPE_R, FD_PIPE_W, FD_INOTIFY };

typedef struct exe_fd {
	int kind;
	int flags;           /* open flags (O_ACCMODE, O_APPEND, O_CLOEXEC...) */
	long off;
	exe_file *file;
} exe_fd;

typedef struct exe_env {
	exe_fd fds[MAX_FDS];
	exe_file *files[MAX_FILES];
	unsigned n_files;
	unsigned n_sym_files;     /* files[0..n_sym_files) are A, B, ... */
	exe_file *sym_stdin;      /* NULL: stdin is empty */
	exe_file *sym_stdout;
	unsigned long out_bytes[3]; /* bytes written to fds 1 and 2 */
	/* --max-fail */
	int max_fail, fails_used, counting;
	int fail_at[8];
	unsigned calls[8];
} exe_env;

extern exe_env __symtest_env;

/* Failure classes, in the order of the contract's objects. */
/* The working directory getcwd() names: the model's files are in it. */
#define SYMTEST_CWD "/symtest"

enum fail_class { FC_READ, FC_WRITE, FC_CLOSE, FC_OPEN, FC_LSEEK, FC_STAT, FC_GETCWD, FC_DUP };

int __symtest_should_fail(int cls);
/* At exit: failure objects of classes that did not fail prefer 0 in the test. */
void __symtest_prefer_unused_fail_zero(void);

/* fd.c */
long __symtest_open(int dirfd, const char *path, int flags, int mode);
long __symtest_close(int fd);
long __symtest_read(int fd, void *buf, size_t n, long pos);
long __symtest_write(int fd, const void *buf, size_t n, long pos);
long __symtest_lseek(int fd, long off, int whence);
long __symtest_fstat(int fd, struct stat *st);
long __symtest_stat(int dirfd, const char *path, struct stat *st, int flags);
/* counted: access() is in the stat failure class, faccessat() is not. */
long __symtest_access(const char *path, int mode, int counted);
long __symtest_dup(int fd, int min, int exact, int cloexec);
long __symtest_fcntl(int fd, int cmd, long arg);
long __symtest_ioctl(int fd, unsigned long req, void *arg);
struct pollfd;
/* timeout_ms < 0: no timeout. */
long __symtest_poll(struct pollfd *fds, unsigned long n, long timeout_ms);
long __symtest_inotify_init(int flags);
long __symtest_inotify_add_watch(int fd, const char *path, unsigned mask);
long __symtest_inotify_rm_watch(int fd, int wd);
long __symtest_pipe(int *fds, int flags);
long __symtest_unlink(int dirfd, const char *path);
long __symtest_ftruncate(int fd, long len);
/* truncate(path, len) */
long __symtest_truncate(const char *path, long len);
/* renameat2 (flags: RENAME_NOREPLACE, RENAME_EXCHANGE) */
long __symtest_rename(int olddirfd, const char *old, int newdirfd, const char *new, unsigned flags);
long __symtest_link(int olddirfd, const char *old, int newdirfd, const char *new, int flags);
/* chmod, chown, utimensat of a path (dirfd AT_FDCWD or an absolute path)
 * or, with a NULL path, of the descriptor fd. owner: uid/gid (-1: kept). */
long __symtest_chmod(int fd, const char *path, mode_t mode);
long __symtest_chown(int fd, const char *path, uid_t uid, gid_t gid, int flags);
long __symtest_utimens(int fd, const char *path, const struct timespec *times, int flags);
exe_file *__symtest_new_file(const char *name, size_t size);

/* Engine calls (special functions). */
void symtest_make_symbolic(void *addr, size_t nbytes, const char *name);
void symtest_assume(unsigned long condition);
void symtest_prefer_cex(void *obj, unsigned long cond);
unsigned symtest_is_symbolic(unsigned long n);
int symtest_get_value_i32(int x);
void symtest_warning(const char *message);
void symtest_report_error(const char *file, int line, const char *message,
                          const char *suffix) __attribute__((__noreturn__));
/* Ends the path with an exit status (no stdio flush: exit() did that already). */
void __symtest_exit(int status) __attribute__((__noreturn__));
/* Host files, read-only: stat and contents of a concrete path (or -errno). */
long __symtest_host_stat(const char *path, struct stat *st);
long __symtest_host_read(const char *path, void *buf, size_t n);
/* Records bytes written to standard output (testNNNNNN.json "stdout"). */
void __symtest_stdout(const void *buf, size_t n);
/* A warning naming an unmodelled system call, once per number. */
void __symtest_model_warning(const char *message);
/* The engine: accesses to the object starting at s past the first NUL it
 * holds now are out-of-bounds errors (a symbolic argument is, natively, only
 * the string up to its NUL; the native replay puts an unmapped page there). */
void __symtest_terminated(const char *s);
/* The engine: the program waits for an event nothing in the model makes; the
 * path ends there with a test whose native run is expected to time out. */
void __symtest_blocked(const char *why) __attribute__((__noreturn__));

/* Shared by fd.c (the descriptor table and the files) and files.c (what is
 * done to files by name: remove, truncate, rename, link, mode, owner, times). */
int __symtest_add_entry(exe_file *f);
int __symtest_table_full(void);
exe_fd *__symtest_get_fd(int fd);
exe_file *__symtest_resolve(exe_file *f);
exe_file *__symtest_existing_file(const char *path, long *err);
exe_file *__symtest_existing_entry(const char *path, long *err);
long __symtest_parent_dir(const char *path);
int __symtest_is_cwd(const char *path);
char *__symtest_name_copy(const char *path, long *err);
int __symtest_grow(exe_file *f, size_t need);
void __symtest_fill_stat(exe_file *f, struct stat *st, int kind);

#endif
