/* symtest POSIX model: what a program does to files by name or descriptor
 * beyond reading and writing them: remove, truncate, rename, link, and their
 * mode, owner and times (the descriptor table and the files are fd.c's). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model.h"

long __symtest_unlink(int dirfd, const char *path)
{
	if (!path)
		return -EFAULT;
	if (dirfd != AT_FDCWD && path[0] != '/')
		return -ENOSYS;
	if (!path[0])
		return -ENOENT;
	long err = 0;
	exe_file *f = __symtest_existing_entry(path, &err);
	if (!f)
		return err;
	if (f->host)
		return f->is_dir ? -EISDIR : -EACCES;
	f->name = 0;
	exe_file *file = __symtest_resolve(f);
	if (file->nlink > 0)
		file->nlink--;
	return 0;
}

/* ftruncate/truncate: a file of the model grows (with zero bytes) or shrinks. */
static long resize(exe_file *f, long len)
{
	if (len < 0)
		return -EINVAL;
	if (__symtest_grow(f, (size_t)len))
		return -ENOSPC;
	if ((size_t)len > f->size)
		memset(f->data + f->size, 0, (size_t)len - f->size);
	f->size = (size_t)len;
	return 0;
}

long __symtest_ftruncate(int fd, long len)
{
	exe_fd *d = __symtest_get_fd(fd);
	if (!d)
		return -EBADF;
	/* Linux: EINVAL for a descriptor not open for writing or not a regular file. */
	if (d->kind != FD_FILE || (d->flags & O_ACCMODE) == O_RDONLY || !d->file || d->file->is_dir)
		return -EINVAL;
	if (d->file->host)
		return -EACCES;
	return resize(d->file, len);
}

long __symtest_truncate(const char *path, long len)
{
	if (!path)
		return -EFAULT;
	if (!path[0])
		return -ENOENT;
	long err = 0;
	exe_file *f = __symtest_existing_file(path, &err);
	if (!f)
		return err;
	if (f->is_dir)
		return -EISDIR;
	if (f->host)
		return -EACCES; /* host files are read-only */
	return resize(f, len);
}

/* What rename and link check of their two paths (after their flags, as the
 * kernel does) before looking either up; 0 when both can be looked up. */
static long two_paths(int olddirfd, const char *old, int newdirfd, const char *new)
{
	if (!old || !new)
		return -EFAULT;
	if ((olddirfd != AT_FDCWD && old[0] != '/') || (newdirfd != AT_FDCWD && new[0] != '/'))
		return -ENOSYS;
	if (!old[0] || !new[0])
		return -ENOENT;
	return 0;
}

/* The model's files and the host's are on different devices (MODEL_DEV
 * and the host's, as stat says): renaming or linking between them fails
 * with EXDEV, as natively across file systems. */
long __symtest_rename(int olddirfd, const char *old, int newdirfd, const char *new, unsigned flags)
{
	enum { NOREPLACE = 1, EXCHANGE = 2 };
	if ((flags & ~(unsigned)(NOREPLACE | EXCHANGE)) || flags == (NOREPLACE | EXCHANGE))
		return -EINVAL;
	long err = two_paths(olddirfd, old, newdirfd, new);
	if (err)
		return err;
	exe_file *src = __symtest_existing_entry(old, &err);
	if (!src)
		return err;
	err = __symtest_parent_dir(new);
	if (err < 0)
		return err;
	exe_file *dst = __symtest_existing_entry(new, &err);
	if (!dst && err != -ENOENT)
		return err;
	if (!dst && (flags & EXCHANGE))
		return -ENOENT;
	if (dst && (flags & NOREPLACE))
		return -EEXIST;
	if (!src->host && dst && dst->is_dir)
		return -EISDIR; /* a file over a (host) directory */
	if (src->host || (dst && dst->host))
		return -EXDEV;
	if (dst && __symtest_resolve(dst) == __symtest_resolve(src))
		return 0; /* two names of one file: nothing happens */
	if (dst && (flags & EXCHANGE)) {
		char *n = src->name;
		src->name = dst->name;
		dst->name = n;
		return 0;
	}
	char *name = __symtest_name_copy(new, &err);
	if (!name)
		return err;
	if (dst) {
		/* The file the new name had loses it (its descriptors keep it). */
		dst->name = 0;
		if (__symtest_resolve(dst)->nlink > 0)
			__symtest_resolve(dst)->nlink--;
	}
	src->name = name;
	return 0;
}

long __symtest_link(int olddirfd, const char *old, int newdirfd, const char *new, int flags)
{
	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	long err = two_paths(olddirfd, old, newdirfd, new);
	if (err)
		return err;
	exe_file *src = __symtest_existing_file(old, &err);
	if (!src)
		return err;
	err = __symtest_parent_dir(new);
	if (err < 0)
		return err;
	exe_file *dst = __symtest_existing_entry(new, &err);
	if (dst)
		return -EEXIST;
	if (err != -ENOENT)
		return err;
	if (src->is_dir)
		return -EPERM;
	if (src->host)
		return -EXDEV;
	if (__symtest_table_full())
		return -ENOSPC;
	char *name = __symtest_name_copy(new, &err);
	if (!name)
		return err;
	exe_file *alias = calloc(1, sizeof *alias);
	alias->name = name;
	alias->link = src;
	__symtest_add_entry(alias);
	src->nlink++;
	return 0;
}

/* The file chmod, chown or utimensat act on: the descriptor's with a NULL
 * path (or "" and AT_EMPTY_PATH), else the path's. NULL with *err; a
 * descriptor without a file of the model (a pipe, stdout) gives NULL with
 * *err 0: nothing to record, success. */
static exe_file *meta_target(int fd, const char *path, int flags, long *err)
{
	*err = 0;
	if (!path || (!path[0] && (flags & AT_EMPTY_PATH))) {
		exe_fd *d = __symtest_get_fd(fd);
		if (!d) {
			*err = -EBADF;
			return 0;
		}
		if (d->kind != FD_FILE || !d->file)
			return 0;
		return d->file;
	}
	if (fd != AT_FDCWD && path[0] != '/') {
		*err = -ENOSYS;
		return 0;
	}
	if (!path[0]) {
		*err = -ENOENT;
		return 0;
	}
	exe_file *f = __symtest_existing_file(path, err);
	if (!f && !*err)
		*err = -ENOENT;
	return f;
}

/* Host files are someone else's (read-only copies): changing their
 * metadata fails with EPERM. The working directory is the test's own (each
 * native test runs in a fresh one): its mode and times may be set (and are
 * not recorded: its `stat` stays the host's). */
long __symtest_chmod(int fd, const char *path, mode_t mode)
{
	long err;
	exe_file *f = meta_target(fd, path, 0, &err);
	if (!f)
		return err;
	if (f->host && path && __symtest_is_cwd(path))
		return 0;
	if (f->host)
		return -EPERM;
	f->meta |= META_MODE;
	f->mode = mode & 07777;
	return 0;
}

long __symtest_chown(int fd, const char *path, uid_t uid, gid_t gid, int flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	long err;
	exe_file *f = meta_target(fd, path, flags, &err);
	if (!f)
		return err;
	if (f->host)
		return -EPERM;
	if (uid != (uid_t)-1) {
		f->meta |= META_UID;
		f->uid = uid;
	}
	if (gid != (gid_t)-1) {
		f->meta |= META_GID;
		f->gid = gid;
	}
	/* Linux clears set-user-ID (and set-group-ID with group execute) of a
	 * file whose owner changes, even for root. */
	if (!f->is_dir) {
		struct stat st;
		__symtest_fill_stat(f, &st, FD_FILE);
		mode_t m = st.st_mode & 07777;
		/* Without a branch: the bits may be symbolic (S_IXGRP << 7 is S_ISGID). */
		mode_t kill = S_ISUID | ((m & S_IXGRP) << 7);
		f->meta |= META_MODE;
		f->mode = m & ~kill;
	}
	return 0;
}

long __symtest_utimens(int fd, const char *path, const struct timespec *times, int flags)
{
	enum { NOW = (1L << 30) - 1, OMIT = (1L << 30) - 2 };
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!path && flags)
		return -EINVAL;
	for (int i = 0; times && i < 2; i++)
		if (times[i].tv_nsec != NOW && times[i].tv_nsec != OMIT &&
		    (times[i].tv_nsec < 0 || times[i].tv_nsec > 999999999))
			return -EINVAL;
	long err;
	exe_file *f = meta_target(fd, path, flags, &err);
	if (!f)
		return err;
	if (f->host && path && __symtest_is_cwd(path))
		return 0;
	if (f->host)
		return -EPERM;
	for (int i = 0; i < 2; i++) {
		struct timespec t = { MODEL_TIME, 0 };
		if (times && times[i].tv_nsec == OMIT)
			continue;
		if (times && times[i].tv_nsec != NOW)
			t = times[i];
		if (i == 0) {
			f->meta |= META_ATIME;
			f->atime = t;
		} else {
			f->meta |= META_MTIME;
			f->mtime = t;
		}
	}
	return 0;
}
