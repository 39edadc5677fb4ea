/* symtest POSIX model: files and file descriptors. Symbolic files (A, B, ...)
 * and stdin hold symbolic bytes; other paths are read-only copies of host files
 * (read through the engine) or files the program creates, kept in memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "model.h"

/* Enters a named file in the table: at its end, or in the slot of a name
 * gone (unlink, rename; a descriptor holds the file itself). */
int __symtest_add_entry(exe_file *f)
{
	exe_env *e = &__symtest_env;
	if (e->n_files < MAX_FILES) {
		e->files[e->n_files++] = f;
		return 0;
	}
	for (unsigned i = 0; i < e->n_files; i++)
		if (!e->files[i]->name) {
			e->files[i] = f;
			return 0;
		}
	return -ENOSPC;
}

int __symtest_table_full(void)
{
	exe_env *e = &__symtest_env;
	if (e->n_files < MAX_FILES)
		return 0;
	for (unsigned i = 0; i < e->n_files; i++)
		if (!e->files[i]->name)
			return 0;
	return 1;
}

exe_file *__symtest_new_file(const char *name, size_t size)
{
	static unsigned long next_ino = 0x1000;
	exe_file *f = calloc(1, sizeof *f);
	f->ino = next_ino++;
	if (name) {
		f->name = malloc(strlen(name) + 1);
		strcpy(f->name, name);
	}
	f->size = f->cap = size;
	f->data = malloc(size ? size : 1);
	if (name) {
		__symtest_add_entry(f);
		f->meta = META_NLINK;
		f->nlink = 1;
	}
	return f;
}

exe_fd *__symtest_get_fd(int fd)
{
	if (fd < 0 || fd >= MAX_FDS || __symtest_env.fds[fd].kind == FD_CLOSED)
		return 0;
	return &__symtest_env.fds[fd];
}

static int alloc_fd(int min)
{
	for (int i = min < 0 ? 0 : min; i < MAX_FDS; i++)
		if (__symtest_env.fds[i].kind == FD_CLOSED)
			return i;
	return -1;
}

static int concrete_char(const char *p, char c)
{
	return !symtest_is_symbolic((unsigned char)*p) && *p == c;
}

/* The working directory's own name, as getcwd() gives it, followed by a '/'
 * (or ending the path): the length of that prefix, else 0. */
static size_t cwd_prefix(const char *path)
{
	const char *cwd = SYMTEST_CWD;
	size_t i = 0;
	for (; cwd[i]; i++)
		if (!concrete_char(path + i, cwd[i]))
			return 0;
	return concrete_char(path + i, '/') || concrete_char(path + i, 0) ? i : 0;
}

/* A path's leading components that name the working directory, where the
 * model's files are: "./A", ".//A" and the absolute "/symtest/A" (built from
 * getcwd(), as sqlite does) all name the file A, as natively in the test's
 * directory (toybox's `ln A` links A to "./A"). The working directory itself
 * is "." ("/symtest", "/symtest/"). Only concrete bytes are skipped, so a
 * symbolic path forks no more than before. */
static const char *skip_dot_slash(const char *path)
{
	size_t cwd = cwd_prefix(path);
	if (cwd) {
		path += cwd;
		while (concrete_char(path, '/'))
			path++;
		if (concrete_char(path, 0))
			return ".";
	}
	int skipped = 0;
	while (concrete_char(path, '.') && concrete_char(path + 1, '/')) {
		path += 2;
		skipped = 1;
		while (concrete_char(path, '/'))
			path++;
	}
	/* "./" is the working directory too. */
	return skipped && concrete_char(path, 0) ? "." : path;
}

/* Whether `path` names the working directory itself (".", "./", "/symtest"):
 * natively each test's own fresh directory, whose mode and times the
 * program may change. */
int __symtest_is_cwd(const char *path)
{
	const char *p = skip_dot_slash(path);
	return concrete_char(p, '.') && concrete_char(p + 1, 0);
}

/* The table entry of a name: symbolic file names are single letters, as in
 * KLEE; a symbolic path forks here, once per file it may name. */
static exe_file *find_entry(const char *path)
{
	exe_env *e = &__symtest_env;
	path = skip_dot_slash(path);
	for (unsigned i = 0; i < e->n_files; i++) {
		const char *n = e->files[i]->name;
		if (!n)
			continue;
		unsigned j = 0;
		while (n[j] && path[j] == n[j])
			j++;
		if (!n[j] && !path[j])
			return e->files[i];
	}
	return 0;
}

/* The file an entry names (a link() made entry names another's file). */
exe_file *__symtest_resolve(exe_file *f)
{
	return f && f->link ? f->link : f;
}

static exe_file *find_file(const char *path)
{
	return __symtest_resolve(find_entry(path));
}

/* A host path must be concrete: symbolic bytes take one value (recorded as a
 * constraint on the path). */
static int concrete_path(const char *path, char *out, size_t cap)
{
	size_t i = 0;
	for (;; i++) {
		if (i + 1 >= cap)
			return -ENAMETOOLONG;
		char c = path[i];
		if (symtest_is_symbolic((unsigned char)c)) {
			char v = (char)symtest_get_value_i32(c);
			symtest_assume(path[i] == v);
			c = v;
		}
		out[i] = c;
		if (!c)
			return 0;
	}
}

/* Host files are copied into the path's memory: keep them reasonable. */
#define HOST_FILE_MAX (16L << 20)

/* Whether a relative path only climbs from the working directory: ".",
 * "..", "../..", "./../", ... (concrete bytes). */
static int only_dots(const char *p)
{
	for (;;) {
		p += p[0] == '.' && p[1] == '.' ? 2 : p[0] == '.' ? 1 : 0;
		if (*p && *p != '/')
			return 0;
		while (*p == '/')
			p++;
		if (!*p)
			return 1;
	}
}

/* A relative path names a file of the working directory, and that holds the
 * model's files only (find_entry's), as natively each test runs in a fresh
 * directory holding only them, not in the directory the engine was started
 * in: any other relative name names nothing (ENOENT), so a program opening
 * its own name (argv[0]: unzipsfx reads itself as its archive) or a file
 * beside it finds none in either. The working directory and the ones above
 * it (".", "..") are still directories. A name whose first byte is concrete
 * and neither '/' nor '.' is decided without pinning its symbolic bytes. */
static exe_file *host_file(const char *path, long *err)
{
	char p[512];
	path = skip_dot_slash(path);
	if (concrete_char(path, 0) ||
	    (!symtest_is_symbolic((unsigned char)path[0]) && path[0] != '/' && path[0] != '.')) {
		*err = -ENOENT;
		return 0;
	}
	long r = concrete_path(path, p, sizeof p);
	if (r < 0) {
		*err = r;
		return 0;
	}
	if (p[0] != '/' && !only_dots(p)) {
		*err = -ENOENT;
		return 0;
	}
	struct stat st;
	r = __symtest_host_stat(p, &st);
	if (r < 0) {
		*err = r;
		return 0;
	}
	exe_file *f;
	if (st.st_size > HOST_FILE_MAX) {
		__symtest_model_warning("a host file larger than 16 MiB cannot be opened (EFBIG)");
		*err = -EFBIG;
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		f = __symtest_new_file(p, 0);
		f->is_dir = 1;
	} else if (!S_ISREG(st.st_mode)) {
		/* A device, FIFO or socket: its metadata only. Reading one may never
		 * end (/dev/zero, /dev/urandom) and opening a FIFO blocks, so opening
		 * it fails with EACCES; /dev/null opens as an empty file. */
		f = __symtest_new_file(p, 0);
		f->special = strcmp(p, "/dev/null") != 0;
	} else {
		f = __symtest_new_file(p, (size_t)st.st_size);
		r = __symtest_host_read(p, f->data, f->size);
		if (r < 0) {
			*err = r;
			return 0;
		}
		f->size = (size_t)r;
	}
	f->st = malloc(sizeof st);
	*f->st = st;
	f->host = 1;
	return f;
}

/* The file a path names: a symbolic or created one, else a host file; NULL
 * with *err (-ENOENT, ...) when there is none. */
exe_file *__symtest_existing_file(const char *path, long *err)
{
	exe_file *f = find_file(path);
	return f ? f : host_file(path, err);
}

/* The entry of a name: the model's (symbolic, created, linked) or a host
 * file's; NULL with *err (-ENOENT, ...) when there is none. */
exe_file *__symtest_existing_entry(const char *path, long *err)
{
	exe_file *f = find_entry(path);
	return f ? f : host_file(path, err);
}

/* A new name needs its directory: 0 when the directory part of `path` names
 * one (no directory part: the working directory), else -ENOENT or -ENOTDIR,
 * as natively (rename or open(O_CREAT) into a directory that is not there).
 * The model has no directories of its own: the working directory, and the
 * host's. */
long __symtest_parent_dir(const char *path)
{
	char p[512];
	long r = concrete_path(path, p, sizeof p);
	if (r < 0)
		return r;
	size_t end = strlen(p);
	while (end > 0 && p[end - 1] != '/')
		end--;
	while (end > 1 && p[end - 1] == '/')
		end--;
	if (end == 0 || (end == 1 && p[0] == '/'))
		return 0;
	p[end] = 0;
	if (!strcmp(p, ".") || !strcmp(p, ".."))
		return 0;
	long err = 0;
	exe_file *d = __symtest_existing_file(p, &err);
	if (!d)
		return err;
	return d->is_dir ? 0 : -ENOTDIR;
}

/* A concrete copy of a path (a new name). */
char *__symtest_name_copy(const char *path, long *err)
{
	char p[512];
	*err = concrete_path(path, p, sizeof p);
	if (*err < 0)
		return 0;
	const char *name = skip_dot_slash(p);
	char *n = malloc(strlen(name) + 1);
	strcpy(n, name);
	return n;
}

/* A file the program creates: empty, its permission bits `mode` less the
 * umask, owned by the model's user, its times the model's clock, one name. */
static exe_file *created_file(const char *name, int mode)
{
	exe_file *f = __symtest_new_file(name, 0);
	f->writable = 1;
	f->meta = META_NLINK | META_MODE | META_UID | META_GID | META_ATIME | META_MTIME;
	f->nlink = 1;
	f->mode = (mode_t)mode & 07777 & ~(mode_t)MODEL_UMASK;
	f->atime.tv_sec = f->mtime.tv_sec = MODEL_TIME;
	return f;
}

long __symtest_open(int dirfd, const char *path, int flags, int mode)
{
	/* Every call counts, whatever its fate (as the replay shim counts them). */
	if (__symtest_should_fail(FC_OPEN))
		return -ENOENT;
	if (!path)
		return -EFAULT;
	if (!path[0])
		return -ENOENT; /* an empty path names no file, O_CREAT or not */
	if (dirfd != AT_FDCWD && path[0] != '/')
		return -ENOSYS;
	int acc = flags & O_ACCMODE;
	exe_file *f = find_file(path);
	if (f && (flags & O_CREAT) && (flags & O_EXCL))
		return -EEXIST;
	if (!f) {
		long err = 0;
		f = host_file(path, &err);
		if (f) {
			/* checked below: host files are read-only */
			if ((flags & O_CREAT) && (flags & O_EXCL))
				return -EEXIST;
		} else if (err != -ENOENT) {
			return err;
		} else if (flags & O_CREAT) {
			char p[512];
			long r = concrete_path(path, p, sizeof p);
			if (r < 0)
				return r;
			r = __symtest_parent_dir(p);
			if (r < 0)
				return r;
			if (__symtest_table_full())
				return -ENOSPC;
			f = created_file(skip_dot_slash(p), mode);
		} else {
			return -ENOENT;
		}
	}
	if (f->host && (acc != O_RDONLY || (flags & O_TRUNC)))
		return -EACCES; /* host files are read-only */
	if (f->special) {
		__symtest_model_warning("a host device, FIFO or socket cannot be opened (EACCES); /dev/null opens as an empty file");
		return -EACCES;
	}
	if (f->is_dir && acc != O_RDONLY)
		return -EISDIR;
	if ((flags & O_DIRECTORY) && !f->is_dir)
		return -ENOTDIR;
	if ((flags & O_TRUNC) && acc != O_RDONLY)
		f->size = 0;
	int fd = alloc_fd(0);
	if (fd < 0)
		return -EMFILE;
	exe_fd *d = &__symtest_env.fds[fd];
	d->kind = FD_FILE;
	d->flags = flags;
	d->off = 0;
	d->file = f;
	return fd;
}

/* Closing an inotify instance ends its watches (a new one numbers from 1). */
static void forget_watches(int fd);

long __symtest_close(int fd)
{
	if (__symtest_should_fail(FC_CLOSE))
		return -EIO;
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	if (d->kind == FD_INOTIFY)
		forget_watches(fd);
	d->kind = FD_CLOSED;
	d->file = 0;
	return 0;
}

/* pos < 0: at the descriptor's offset, which advances. */
long __symtest_read(int fd, void *buf, size_t n, long pos)
{
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	if ((d->flags & O_ACCMODE) == O_WRONLY || d->kind == FD_SINK || d->kind == FD_PIPE_W)
		return -EBADF;
	if (d->kind == FD_INOTIFY) {
		if (d->flags & O_NONBLOCK)
			return -EAGAIN;
		__symtest_blocked("read of an inotify descriptor (nothing in the model changes a watched file)");
	}
	if (d->file && d->file->is_dir)
		return -EISDIR;
	if (n == 0)
		return 0;
	long off = pos < 0 ? d->off : pos;
	exe_file *f = d->file;
	if ((size_t)off >= f->size)
		return 0;
	if (n > f->size - (size_t)off)
		n = f->size - (size_t)off;
	memcpy(buf, f->data + off, n);
	if (pos < 0)
		d->off = off + (long)n;
	return (long)n;
}

int __symtest_grow(exe_file *f, size_t need)
{
	if (need <= f->cap)
		return 0;
	size_t cap = f->cap * 2 + 64;
	if (cap < need)
		cap = need;
	unsigned char *p = realloc(f->data, cap);
	if (!p)
		return -ENOSPC;
	f->data = p;
	f->cap = cap;
	return 0;
}

long __symtest_write(int fd, const void *buf, size_t n, long pos)
{
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	if (d->kind == FD_SINK) {
		if (fd <= 2)
			__symtest_env.out_bytes[fd] += n;
		if (fd == 1)
			__symtest_stdout(buf, n);
		return (long)n;
	}
	if (d->kind == FD_INOTIFY)
		return -EINVAL;
	if ((d->flags & O_ACCMODE) == O_RDONLY || d->kind == FD_PIPE_R)
		return -EBADF;
	exe_file *f = d->file;
	if (f == __symtest_env.sym_stdout) {
		/* --sym-stdout: writes land in the symbolic buffer, up to its size. */
		if (fd == 1)
			__symtest_stdout(buf, n);
		long off = pos < 0 ? d->off : pos;
		if ((size_t)off >= f->size)
			return (long)n;
		size_t m = n < f->size - (size_t)off ? n : f->size - (size_t)off;
		memcpy(f->data + off, buf, m);
		if (pos < 0)
			d->off = off + (long)n;
		return (long)n;
	}
	long off = pos < 0 ? d->off : pos;
	if (d->kind == FD_PIPE_W || ((d->flags & O_APPEND) && pos < 0))
		off = (long)f->size;
	if (__symtest_grow(f, (size_t)off + n))
		return -ENOSPC;
	if ((size_t)off > f->size)
		memset(f->data + f->size, 0, (size_t)off - f->size);
	memcpy(f->data + off, buf, n);
	if ((size_t)off + n > f->size)
		f->size = (size_t)off + n;
	if (pos < 0)
		d->off = off + (long)n;
	return (long)n;
}

long __symtest_lseek(int fd, long off, int whence)
{
	if (__symtest_should_fail(FC_LSEEK))
		return -EIO;
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	if (d->kind != FD_FILE)
		return -ESPIPE;
	long base;
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = d->off; break;
	case SEEK_END: base = (long)d->file->size; break;
	default: return -EINVAL;
	}
	if (base + off < 0)
		return -EINVAL;
	d->off = base + off;
	return d->off;
}

void __symtest_fill_stat(exe_file *f, struct stat *st, int kind)
{
	if (f && f->st) {
		*st = *f->st;
		if (f->host)
			return;
	} else {
		memset(st, 0, sizeof *st);
		/* A pipe (stdout, stderr, pipe()) is on device 0; a file the model made on MODEL_DEV. */
		st->st_ino = kind == FD_SINK ? 1000 : 1001;
		if (f) {
			st->st_dev = MODEL_DEV;
			st->st_ino = f->ino;
		}
		st->st_nlink = 1;
		st->st_blksize = 4096;
		if (kind == FD_INOTIFY) {
			/* An anonymous inode, as Linux shows an inotify instance. */
			st->st_mode = 0600;
			return;
		}
		if (kind == FD_SINK || kind == FD_PIPE_R || kind == FD_PIPE_W) {
			/* stdout and stderr are pipes, as in a native run of the suite,
			 * whose runner captures them through pipes (gnulib's isapipe:
			 * tail watches such an output for its reader going away). */
			st->st_mode = S_IFIFO | 0600;
			return;
		}
		st->st_mode = S_IFREG | 0644;
	}
	if (!f)
		return;
	/* A file of the model (symbolic or created): its size as written or
	 * truncated, in 4 KiB blocks (a symbolic file's stat says the same of
	 * its initial size), and what the program set (chmod, chown, utimensat,
	 * link, unlink). */
	st->st_size = (off_t)f->size;
	st->st_blocks = (blkcnt_t)((f->size + 4095) / 4096 * 8);
	if (f->meta & META_NLINK)
		st->st_nlink = (nlink_t)f->nlink;
	if (f->meta & META_MODE)
		st->st_mode = (st->st_mode & S_IFMT) | f->mode;
	if (f->meta & META_UID)
		st->st_uid = f->uid;
	if (f->meta & META_GID)
		st->st_gid = f->gid;
	if (f->meta & META_ATIME)
		st->st_atim = f->atime;
	if (f->meta & META_MTIME)
		st->st_mtim = f->mtime;
	/* The change time stays the model's clock, which never moves. */
	st->st_ctim.tv_sec = MODEL_TIME;
	st->st_ctim.tv_nsec = 0;
}

long __symtest_fstat(int fd, struct stat *st)
{
	/* The stat class fails with ENOENT, as the replay shim fails it. */
	if (__symtest_should_fail(FC_STAT))
		return -ENOENT;
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	__symtest_fill_stat(d->file, st, d->kind);
	return 0;
}

long __symtest_stat(int dirfd, const char *path, struct stat *st, int flags)
{
	(void)flags;
	if (__symtest_should_fail(FC_STAT))
		return -ENOENT;
	if (!path)
		return -EFAULT;
	if (!path[0] && (flags & AT_EMPTY_PATH)) {
		exe_fd *d = __symtest_get_fd(dirfd);
		if (!d)
			return -EBADF;
		__symtest_fill_stat(d->file, st, d->kind);
		return 0;
	}
	if (dirfd != AT_FDCWD && path[0] != '/')
		return -ENOSYS;
	long err = 0;
	exe_file *f = __symtest_existing_file(path, &err);
	if (!f)
		return err;
	__symtest_fill_stat(f, st, FD_FILE);
	return 0;
}

long __symtest_access(const char *path, int mode, int counted)
{
	if (counted && __symtest_should_fail(FC_STAT))
		return -ENOENT;
	if (!path)
		return -EFAULT;
	long err = 0;
	exe_file *f = __symtest_existing_file(path, &err);
	if (!f)
		return err;
	if ((mode & W_OK) && f->host && !f->is_dir)
		return -EACCES; /* host files are read-only */
	/* The model's user is root: it may execute a regular file of the model
	 * when some execute bit is set, as natively. */
	if ((mode & X_OK) && !f->host && !f->is_dir) {
		struct stat st;
		__symtest_fill_stat(f, &st, FD_FILE);
		if (!(st.st_mode & 0111))
			return -EACCES;
	}
	return 0;
}

long __symtest_dup(int fd, int min, int exact, int cloexec)
{
	if (__symtest_should_fail(FC_DUP))
		return -EMFILE;
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	int nfd;
	if (exact) {
		if (min < 0 || min >= MAX_FDS)
			return -EBADF;
		nfd = min;
		if (nfd == fd)
			return nfd;
	} else {
		nfd = alloc_fd(min);
		if (nfd < 0)
			return -EMFILE;
	}
	__symtest_env.fds[nfd] = *d;
	__symtest_env.fds[nfd].flags = (d->flags & ~O_CLOEXEC) | (cloexec ? O_CLOEXEC : 0);
	return nfd;
}

long __symtest_fcntl(int fd, int cmd, long arg)
{
	exe_fd *d = __symtest_get_fd(fd);
	switch (cmd) {
	case F_DUPFD:
		return __symtest_dup(fd, (int)arg, 0, 0);
	case F_DUPFD_CLOEXEC:
		return __symtest_dup(fd, (int)arg, 0, 1);
	}
	if (!d)
		return -EBADF;
	switch (cmd) {
	case F_GETFD:
		return (d->flags & O_CLOEXEC) ? FD_CLOEXEC : 0;
	case F_SETFD:
		d->flags = (d->flags & ~O_CLOEXEC) | ((arg & FD_CLOEXEC) ? O_CLOEXEC : 0);
		return 0;
	case F_GETFL:
		return d->flags & ~O_CLOEXEC;
	case F_SETFL:
		d->flags = (d->flags & ~(O_APPEND | O_NONBLOCK)) | (int)(arg & (O_APPEND | O_NONBLOCK));
		return 0;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
		return 0;
	}
	return -EINVAL;
}

long __symtest_ioctl(int fd, unsigned long req, void *arg)
{
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	/* FIONREAD: the bytes a read would get now, on a file or the read end of
	 * a pipe, as Linux answers it (cat asks it of its input; the native
	 * replay's stdin is a regular file). */
	if (req == 0x541B && arg && (d->kind == FD_FILE || d->kind == FD_PIPE_R) && d->file &&
	    !d->file->is_dir) {
		size_t size = d->file->size;
		size_t off = d->off < 0 ? 0 : (size_t)d->off;
		*(int *)arg = off >= size ? 0 : (int)(size - off);
		return 0;
	}
	/* FIONREAD on an inotify instance: its pending events, never any. */
	if (req == 0x541B && arg && d->kind == FD_INOTIFY) {
		*(int *)arg = 0;
		return 0;
	}
	/* No descriptor is a terminal (as under the native replay, where stdout is
	 * a pipe): stdio buffers fully and isatty() is false. */
	return -ENOTTY;
}

/* poll/ppoll: every descriptor is ready at once (a read in the model never
 * waits; time does not pass), as a native run sees them: stdout and stderr
 * are pipes whose reader is alive, so they are writable and not hung up
 * (tail's check_output_alive). A closed descriptor is POLLNVAL. An inotify
 * instance is never ready: with nothing else ready, a poll with a timeout
 * returns 0 and one without blocks for ever (`tail -f FILE`), which ends the
 * path (natively the program waits there until it is killed). */
long __symtest_poll(struct pollfd *fds, unsigned long n, long timeout_ms)
{
	long ready = 0;
	if (n && !fds)
		return -EFAULT;
	for (unsigned long i = 0; i < n; i++) {
		short ev = fds[i].events, re = 0;
		if (fds[i].fd < 0) {
			fds[i].revents = 0;
			continue;
		}
		exe_fd *d = __symtest_get_fd(fds[i].fd);
		if (!d)
			re = POLLNVAL;
		else if (d->kind == FD_INOTIFY)
			re = 0;
		else if (d->kind == FD_SINK || d->kind == FD_PIPE_W)
			re = ev & (POLLOUT | POLLWRNORM);
		else if (d->kind == FD_PIPE_R)
			re = ev & (POLLIN | POLLRDNORM);
		else
			re = ev & (POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM);
		fds[i].revents = re;
		ready += re != 0;
	}
	if (!ready && timeout_ms < 0)
		__symtest_blocked("poll without a timeout on descriptors that never become ready (an inotify instance)");
	return ready;
}

/* inotify: an instance is a descriptor; a watch is a number per instance and
 * file (the same file watched twice gets the same number, as Linux gives one
 * per inode). Watching a path needs it to exist. */
#define MAX_WATCHES 16
static struct {
	int fd;
	exe_file *file;
} watches[MAX_WATCHES];
static unsigned n_watches;

static void forget_watches(int fd)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < n_watches; i++)
		if (watches[i].fd != fd)
			watches[kept++] = watches[i];
	n_watches = kept;
}

long __symtest_inotify_init(int flags)
{
	if (flags & ~(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	int fd = alloc_fd(0);
	if (fd < 0)
		return -EMFILE;
	exe_fd *d = &__symtest_env.fds[fd];
	d->kind = FD_INOTIFY;
	d->flags = O_RDONLY | (flags & (O_NONBLOCK | O_CLOEXEC));
	d->off = 0;
	d->file = 0;
	return fd;
}

long __symtest_inotify_add_watch(int fd, const char *path, unsigned mask)
{
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	if (d->kind != FD_INOTIFY)
		return -EINVAL;
	if (!path)
		return -EFAULT;
	if (!(mask & 0xfffu))
		return -EINVAL;
	long err = 0;
	exe_file *f = __symtest_existing_file(path, &err);
	if (!f)
		return err;
	int wd = 0;
	for (unsigned i = 0; i < n_watches; i++) {
		if (watches[i].fd != fd)
			continue;
		wd++;
		if (watches[i].file == f)
			return wd;
	}
	if (n_watches == MAX_WATCHES)
		return -ENOSPC;
	watches[n_watches].fd = fd;
	watches[n_watches].file = f;
	n_watches++;
	return wd + 1;
}

long __symtest_inotify_rm_watch(int fd, int wd)
{
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	if (d->kind != FD_INOTIFY || wd <= 0)
		return -EINVAL;
	return 0;
}

long __symtest_pipe(int *fds, int flags)
{
	int r = alloc_fd(0);
	if (r < 0)
		return -EMFILE;
	__symtest_env.fds[r].kind = FD_PIPE_R;
	int w = alloc_fd(0);
	if (w < 0) {
		__symtest_env.fds[r].kind = FD_CLOSED;
		return -EMFILE;
	}
	exe_file *f = __symtest_new_file(0, 0);
	f->writable = 1;
	exe_fd *rd = &__symtest_env.fds[r], *wr = &__symtest_env.fds[w];
	rd->flags = O_RDONLY | (flags & O_CLOEXEC);
	rd->off = 0;
	rd->file = f;
	wr->kind = FD_PIPE_W;
	wr->flags = O_WRONLY | (flags & O_CLOEXEC);
	wr->off = 0;
	wr->file = f;
	fds[0] = r;
	fds[1] = w;
	return 0;
}
