/* symtest POSIX model: the system-call dispatcher musl's syscall layer calls
 * (libc-models/musl/arch/syscall_arch.h). Unmodelled calls fail with ENOSYS
 * after a `model` warning naming them, and the path goes on. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include "model.h"

#define CWD SYMTEST_CWD
#define PID 42

static long do_readv(int fd, const struct iovec *iov, int cnt, long pos)
{
	if (__symtest_should_fail(FC_READ))
		return -EIO;
	long total = 0;
	for (int i = 0; i < cnt; i++) {
		long r = __symtest_read(fd, iov[i].iov_base, iov[i].iov_len,
		                        pos < 0 ? -1 : pos + total);
		if (r < 0)
			return total ? total : r;
		total += r;
		if ((size_t)r < iov[i].iov_len)
			break;
	}
	return total;
}

static long do_writev(int fd, const struct iovec *iov, int cnt, long pos)
{
	if (__symtest_should_fail(FC_WRITE))
		return -EIO;
	long total = 0;
	for (int i = 0; i < cnt; i++) {
		if (!iov[i].iov_len)
			continue;
		long r = __symtest_write(fd, iov[i].iov_base, iov[i].iov_len,
		                         pos < 0 ? -1 : pos + total);
		if (r < 0)
			return total ? total : r;
		total += r;
	}
	return total;
}

static long do_getcwd(char *buf, size_t size)
{
	if (__symtest_should_fail(FC_GETCWD))
		return -ERANGE;
	if (size < sizeof CWD)
		return -ERANGE;
	memcpy(buf, CWD, sizeof CWD);
	return sizeof CWD;
}

static long do_clock_gettime(struct timespec *ts)
{
	/* A fixed clock: runs are deterministic. */
	ts->tv_sec = MODEL_TIME;
	ts->tv_nsec = 0;
	return 0;
}

/* What the model's world has none of: other processes (fork, vfork, clone,
 * clone3: a path is one process, and the model runs no other program), a
 * network (socket, socketpair), directory listings (getdents, getdents64:
 * the engine reads host files, not host directories) and copies the kernel
 * makes between descriptors (splice, tee, vmsplice, sendfile,
 * copy_file_range: programs fall back to read and write, or fail). These calls fail with
 * ENOSYS, but socket and socketpair with EAFNOSUPPORT, as on a kernel built
 * without networking: the C library takes that for "no such service" (musl's
 * nscd query, behind getgrouplist and initgroups, then reads /etc/group;
 * ENOSYS made them fail: toybox's `id root` and `su`). So do they fail in
 * every native run of a test, which makes them
 * fail the same way (libc-models/replay/symtest_world.c, `symtest_world`):
 * natively a shell's command would otherwise run, `ip` would list the host's
 * interfaces and `ls` its directory, where the engine saw a failure. */
static long no_such_world(long n)
{
	switch (n) {
	case SYS_socket:
	case SYS_socketpair:
		__symtest_model_warning("the model has no network: socket and socketpair fail with EAFNOSUPPORT, in the engine and natively");
		return -EAFNOSUPPORT;
	case SYS_getdents:
	case SYS_getdents64:
		__symtest_model_warning("the model lists no directory: getdents fails with ENOSYS, in the engine and natively");
		break;
	case SYS_splice:
	case SYS_tee:
	case SYS_vmsplice:
	case SYS_sendfile:
	case SYS_copy_file_range:
		__symtest_model_warning("the model copies between descriptors only through the program's own reads and writes: splice, tee, vmsplice, sendfile and copy_file_range fail with ENOSYS, in the engine and natively");
		break;
	default:
		__symtest_model_warning("the model runs one process: fork, vfork and clone fail with ENOSYS, in the engine and natively");
	}
	return -ENOSYS;
}

/* select and pselect6 answer as poll does (every descriptor ready but an
 * inotify instance; none ready and no timeout: the path is blocked): a set
 * keeps the descriptors ready for it, and the exceptional set is emptied. */
/* The process's credentials. The model's user is root, in group 0 alone
 * (`id` prints groups=0(root), as natively for root); root may set them, as
 * natively (toybox's `su` sets its groups, group and user before running the
 * shell: ENOSYS ended it with exit 1 where natively it went on). Another user
 * may only switch among its real, effective and saved ids. */
#define MODEL_GROUPS_MAX 64
static struct {
	int set; /* 0: the starting credentials below */
	unsigned uid[3], gid[3]; /* real, effective, saved */
	unsigned n_groups;
	unsigned groups[MODEL_GROUPS_MAX];
} cred;

static void cred_init(void)
{
	if (cred.set)
		return;
	cred.set = 1;
	cred.n_groups = 1; /* uid, gid: 0; groups[0]: 0 */
}

/* setresuid/setresgid (-1: unchanged) and the calls built on them. */
static long set_ids(unsigned *ids, long r, long e, long s)
{
	cred_init();
	long want[3] = {r, e, s};
	for (int i = 0; i < 3; i++) {
		if (want[i] == -1 || (unsigned)want[i] == (unsigned)-1 || cred.uid[1] == 0)
			continue;
		unsigned v = (unsigned)want[i];
		if (v != ids[0] && v != ids[1] && v != ids[2])
			return -EPERM;
	}
	for (int i = 0; i < 3; i++)
		if (want[i] != -1 && (unsigned)want[i] != (unsigned)-1)
			ids[i] = (unsigned)want[i];
	return 0;
}

static long do_setuid(unsigned *ids, unsigned v)
{
	cred_init();
	if (cred.uid[1] == 0) /* privileged: all three */
		return set_ids(ids, v, v, v);
	return set_ids(ids, -1, v, -1);
}

static long do_setgroups(long n, const unsigned *list)
{
	cred_init();
	if (n < 0 || n > 65536)
		return -EINVAL;
	if (cred.uid[1] != 0)
		return -EPERM;
	if (n > MODEL_GROUPS_MAX) {
		__symtest_model_warning("setgroups of more than 64 groups: it fails with EINVAL");
		return -EINVAL;
	}
	for (long i = 0; i < n; i++)
		cred.groups[i] = list[i];
	cred.n_groups = (unsigned)n;
	return 0;
}

static long do_getgroups(long n, unsigned *list)
{
	cred_init();
	if (n == 0)
		return cred.n_groups;
	if (n < 0 || (unsigned long)n < cred.n_groups)
		return -EINVAL;
	for (unsigned i = 0; i < cred.n_groups; i++)
		list[i] = cred.groups[i];
	return cred.n_groups;
}

static long get_res(const unsigned *ids, unsigned *r, unsigned *e, unsigned *s)
{
	cred_init();
	if (!r || !e || !s)
		return -EFAULT;
	*r = ids[0];
	*e = ids[1];
	*s = ids[2];
	return 0;
}

static long do_select(int n, fd_set *rd, fd_set *wr, fd_set *ex, long timeout_ms)
{
	if (n < 0 || n > FD_SETSIZE)
		return -EINVAL;
	struct pollfd fds[FD_SETSIZE];
	unsigned long k = 0;
	for (int fd = 0; fd < n; fd++) {
		short ev = (rd && FD_ISSET(fd, rd) ? POLLIN : 0) | (wr && FD_ISSET(fd, wr) ? POLLOUT : 0);
		if (!ev && !(ex && FD_ISSET(fd, ex)))
			continue;
		fds[k].fd = fd;
		fds[k].events = ev;
		fds[k].revents = 0;
		k++;
	}
	long ready = k ? __symtest_poll(fds, k, timeout_ms) : 0;
	if (!k && timeout_ms < 0)
		__symtest_blocked("select without a timeout on no descriptor");
	if (ready < 0)
		return ready;
	for (unsigned long i = 0; i < k; i++)
		if (fds[i].revents & POLLNVAL)
			return -EBADF;
	long count = 0;
	for (unsigned long i = 0; i < k; i++) {
		int fd = fds[i].fd;
		if (rd && FD_ISSET(fd, rd) && !(fds[i].revents & POLLIN))
			FD_CLR(fd, rd);
		if (wr && FD_ISSET(fd, wr) && !(fds[i].revents & POLLOUT))
			FD_CLR(fd, wr);
		if (ex)
			FD_CLR(fd, ex);
		count += (rd && FD_ISSET(fd, rd)) + (wr && FD_ISSET(fd, wr));
	}
	return count;
}

/* execve: the model runs no other program, and neither does a native run of
 * a test (symtest_fail.c): the call fails as the kernel's would for a path
 * that names no file (ENOENT, ENOTDIR, ...), and with EACCES for one that
 * does, as on a file system mounted noexec. The check is not a `stat` of a
 * --max-fail class: the native run's is not counted either. */
static long do_execve(const char *path)
{
	if (!path)
		return -EFAULT;
	long r = __symtest_access(path, 0 /* F_OK */, 0);
	return r < 0 ? r : -EACCES;
}

static const char *syscall_name(long n)
{
	switch (n) {
#define N(x) case SYS_##x: return #x;
	N(socket) N(connect) N(accept) N(bind) N(listen) N(sendto) N(recvfrom)
	N(fork) N(vfork) N(clone) N(execve) N(wait4) N(kill) N(tkill) N(tgkill)
	N(mkdir) N(rmdir) N(symlink)
	N(getdents64) N(nanosleep) N(alarm) N(mprotect)
	N(mremap) N(msync) N(madvise) N(shmget) N(setitimer) N(getitimer)
	N(flock) N(fsync) N(statfs) N(fstatfs)
	N(getrusage) N(sysinfo) N(times) N(ptrace) N(setsid)
	N(getrandom) N(getgroups) N(statx) N(prlimit64) N(getrlimit) N(setrlimit) N(futex)
	N(getpriority) N(setpriority)
	N(sched_getaffinity) N(memfd_create) N(mkdirat)
	N(symlinkat) N(epoll_create1) N(eventfd2) N(utimes) N(utime) N(futimesat)
	N(chroot) N(mount) N(umount2)
	N(fchdir) N(getdents) N(mknod) N(mknodat) N(execveat)
#undef N
	}
	return 0;
}

static void unmodelled(long n)
{
	char msg[96] = "unmodelled system call ";
	const char *name = syscall_name(n);
	char num[24];
	int k = 0;
	unsigned long v = (unsigned long)n;
	do {
		num[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	size_t len = strlen(msg);
	if (name) {
		strcat(msg, name);
		len = strlen(msg);
		msg[len++] = ' ';
		msg[len++] = '(';
	} else {
		memcpy(msg + len, "number ", 7);
		len += 7;
	}
	while (k)
		msg[len++] = num[--k];
	if (name)
		msg[len++] = ')';
	msg[len] = 0;
	strcat(msg, ": it fails with ENOSYS");
	__symtest_model_warning(msg);
}

long __symtest_syscall(long n, long a, long b, long c, long d, long e, long f)
{
	(void)f;
	switch (n) {
	case SYS_read:
		if (__symtest_should_fail(FC_READ))
			return -EIO;
		return __symtest_read((int)a, (void *)b, (size_t)c, -1);
	case SYS_pread64:
		if (__symtest_should_fail(FC_READ))
			return -EIO;
		if (d < 0)
			return -EINVAL;
		return __symtest_read((int)a, (void *)b, (size_t)c, d);
	case SYS_readv:
		return do_readv((int)a, (const struct iovec *)b, (int)c, -1);
	case SYS_write:
		if (__symtest_should_fail(FC_WRITE))
			return -EIO;
		return __symtest_write((int)a, (const void *)b, (size_t)c, -1);
	case SYS_pwrite64:
		if (__symtest_should_fail(FC_WRITE))
			return -EIO;
		if (d < 0)
			return -EINVAL;
		return __symtest_write((int)a, (const void *)b, (size_t)c, d);
	case SYS_writev:
		return do_writev((int)a, (const struct iovec *)b, (int)c, -1);
	case SYS_open:
		return __symtest_open(AT_FDCWD, (const char *)a, (int)b, (int)c);
	case SYS_creat:
		return __symtest_open(AT_FDCWD, (const char *)a, O_CREAT | O_WRONLY | O_TRUNC, (int)b);
	case SYS_openat:
		return __symtest_open((int)a, (const char *)b, (int)c, (int)d);
	case SYS_close:
		return __symtest_close((int)a);
	case SYS_lseek:
		return __symtest_lseek((int)a, b, (int)c);
	case SYS_stat:
		return __symtest_stat(AT_FDCWD, (const char *)a, (struct stat *)b, 0);
	case SYS_lstat:
		return __symtest_stat(AT_FDCWD, (const char *)a, (struct stat *)b, AT_SYMLINK_NOFOLLOW);
	case SYS_fstat:
		return __symtest_fstat((int)a, (struct stat *)b);
	case SYS_newfstatat:
		return __symtest_stat((int)a, (const char *)b, (struct stat *)c, (int)d);
	case SYS_statx:
		if (__symtest_should_fail(FC_STAT))
			return -ENOENT;
		return -ENOSYS; /* musl falls back to fstatat */
	case SYS_access:
		return __symtest_access((const char *)a, (int)b, 1);
	case SYS_faccessat:
	case SYS_faccessat2: /* musl's faccessat with flags (sort: AT_EACCESS) */
		if ((int)a != AT_FDCWD && ((const char *)b)[0] != '/')
			return -ENOSYS;
		return __symtest_access((const char *)b, (int)c, 0);
	case SYS_dup:
		return __symtest_dup((int)a, 0, 0, 0);
	case SYS_dup2:
		return __symtest_dup((int)a, (int)b, 1, 0);
	case SYS_dup3:
		if (a == b)
			return __symtest_should_fail(FC_DUP) ? -EMFILE : -EINVAL;
		return __symtest_dup((int)a, (int)b, 1, (int)c & O_CLOEXEC);
	case SYS_fcntl:
		return __symtest_fcntl((int)a, (int)b, c);
	case SYS_ioctl:
		return __symtest_ioctl((int)a, (unsigned long)b, (void *)c);
	case SYS_poll:
		return __symtest_poll((struct pollfd *)a, (unsigned long)b, (int)c);
	case SYS_ppoll: {
		const struct timespec *ts = (const struct timespec *)c;
		long ms = !ts ? -1 : ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
		return __symtest_poll((struct pollfd *)a, (unsigned long)b, ms < 0 ? 0 : ms);
	}
	case SYS_select: {
		const long *tv = (const long *)e;
		long ms = !tv ? -1 : tv[0] * 1000 + tv[1] / 1000;
		return do_select((int)a, (fd_set *)b, (fd_set *)c, (fd_set *)d, ms < -1 ? 0 : ms);
	}
	case SYS_pselect6: {
		const struct timespec *ts = (const struct timespec *)e;
		long ms = !ts ? -1 : ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
		return do_select((int)a, (fd_set *)b, (fd_set *)c, (fd_set *)d, ms < -1 ? 0 : ms);
	}
	case SYS_inotify_init:
		return __symtest_inotify_init(0);
	case SYS_inotify_init1:
		return __symtest_inotify_init((int)a);
	case SYS_inotify_add_watch:
		return __symtest_inotify_add_watch((int)a, (const char *)b, (unsigned)c);
	case SYS_inotify_rm_watch:
		return __symtest_inotify_rm_watch((int)a, (int)b);
	case SYS_pipe:
		return __symtest_pipe((int *)a, 0);
	case SYS_pipe2:
		return __symtest_pipe((int *)a, (int)b);
	case SYS_getcwd:
		return do_getcwd((char *)a, (size_t)b);
	case SYS_chdir: {
		const char *p = (const char *)a;
		return p && p[0] ? 0 : -ENOENT;
	}
	case SYS_unlink:
		return __symtest_unlink(AT_FDCWD, (const char *)a);
	case SYS_unlinkat:
		return __symtest_unlink((int)a, (const char *)b);
	case SYS_readlink:
	case SYS_readlinkat:
		return -EINVAL; /* no symbolic links */
	case SYS_ftruncate:
		return __symtest_ftruncate((int)a, b);
	case SYS_truncate:
		return __symtest_truncate((const char *)a, b);
	/* Creating, finishing, renaming and removing files (gzip, bzip2, xz:
	 * FILE.gz created with O_EXCL, FILE's mode, owner and times copied to
	 * it, FILE unlinked; or a temporary name renamed over the final one).
	 * None is in a --max-fail class: the replay shim fails none of them. */
	case SYS_rename:
		return __symtest_rename(AT_FDCWD, (const char *)a, AT_FDCWD, (const char *)b, 0);
	case SYS_renameat:
		return __symtest_rename((int)a, (const char *)b, (int)c, (const char *)d, 0);
	case SYS_renameat2:
		return __symtest_rename((int)a, (const char *)b, (int)c, (const char *)d, (unsigned)e);
	case SYS_link:
		return __symtest_link(AT_FDCWD, (const char *)a, AT_FDCWD, (const char *)b, 0);
	case SYS_linkat:
		return __symtest_link((int)a, (const char *)b, (int)c, (const char *)d, (int)e);
	case SYS_chmod:
		return a ? __symtest_chmod(AT_FDCWD, (const char *)a, (mode_t)b) : -EFAULT;
	case SYS_fchmod:
		return __symtest_chmod((int)a, 0, (mode_t)b);
	case SYS_fchmodat:
		return b ? __symtest_chmod((int)a, (const char *)b, (mode_t)c) : -EFAULT;
	case SYS_chown:
	case SYS_lchown: /* no symbolic links: the same */
		return a ? __symtest_chown(AT_FDCWD, (const char *)a, (uid_t)b, (gid_t)c, 0) : -EFAULT;
	case SYS_fchown:
		return __symtest_chown((int)a, 0, (uid_t)b, (gid_t)c, 0);
	case SYS_fchownat:
		return b ? __symtest_chown((int)a, (const char *)b, (uid_t)c, (gid_t)d, (int)e) : -EFAULT;
	case SYS_utimensat: /* utimensat, futimens; musl's utimes, utime, futimes too */
		return __symtest_utimens((int)a, (const char *)b, (const struct timespec *)c, (int)d);
	case SYS_fsync:
	case SYS_fdatasync:
	case SYS_fadvise64:
		return 0;
	case SYS_getpid:
	case SYS_gettid:
	case SYS_set_tid_address:
		return PID;
	case SYS_getppid:
		return 1;
	case SYS_getuid:
		cred_init();
		return cred.uid[0];
	case SYS_geteuid:
		cred_init();
		return cred.uid[1];
	case SYS_getgid:
		cred_init();
		return cred.gid[0];
	case SYS_getegid:
		cred_init();
		return cred.gid[1];
	case SYS_getresuid:
		return get_res(cred.uid, (unsigned *)a, (unsigned *)b, (unsigned *)c);
	case SYS_getresgid:
		return get_res(cred.gid, (unsigned *)a, (unsigned *)b, (unsigned *)c);
	case SYS_getgroups:
		return do_getgroups((int)a, (unsigned *)b);
	case SYS_setgroups:
		return do_setgroups((int)a, (const unsigned *)b);
	case SYS_setuid:
		return do_setuid(cred.uid, (unsigned)a);
	case SYS_setgid:
		return do_setuid(cred.gid, (unsigned)a);
	case SYS_setreuid:
		return set_ids(cred.uid, (int)a, (int)b, -1);
	case SYS_setregid:
		return set_ids(cred.gid, (int)a, (int)b, -1);
	case SYS_setresuid:
		return set_ids(cred.uid, (int)a, (int)b, (int)c);
	case SYS_setresgid:
		return set_ids(cred.gid, (int)a, (int)b, (int)c);
	case SYS_umask:
		return MODEL_UMASK;
	case SYS_time: {
		if (a)
			*(long *)a = 1700000000;
		return 1700000000;
	}
	case SYS_clock_gettime:
		return do_clock_gettime((struct timespec *)b);
	case SYS_gettimeofday: {
		long *tv = (long *)a;
		if (tv) {
			tv[0] = 1700000000;
			tv[1] = 0;
		}
		return 0;
	}
	case SYS_uname: {
		struct utsname *u = (struct utsname *)a;
		memset(u, 0, sizeof *u);
		strcpy(u->sysname, "Linux");
		strcpy(u->nodename, "symtest");
		strcpy(u->release, "6.1.0");
		strcpy(u->version, "#1");
		strcpy(u->machine, "x86_64");
		return 0;
	}
	case SYS_exit:
	case SYS_exit_group:
		__symtest_prefer_unused_fail_zero();
		__symtest_exit((int)a);
	case SYS_brk:
		return 0; /* no heap growth: malloc is the engine's */
	case SYS_mmap:
		return -ENOMEM;
	case SYS_munmap:
	case SYS_madvise:
	case SYS_mprotect:
		return 0;
	case SYS_rt_sigaction:
	case SYS_rt_sigprocmask:
	case SYS_sigaltstack:
	case SYS_sched_yield:
		return 0;
	case SYS_sched_getaffinity: {
		/* One processor, CPU 0 (sysconf(_SC_NPROCESSORS_*) counts it);
		 * the kernel writes one word of the mask and returns its size.
		 * The native suite answers the same (templates/suite/symtest_env.c). */
		unsigned char *mask = (unsigned char *)c;
		if (b < (long)sizeof(unsigned long) || !mask)
			return -EINVAL;
		memset(mask, 0, sizeof(unsigned long));
		mask[0] = 1;
		return sizeof(unsigned long);
	}
	case SYS_sysinfo: {
		/* A fixed machine: 4 GiB of memory, half free, up one day. */
		struct sysinfo *si = (struct sysinfo *)a;
		memset(si, 0, sizeof *si);
		si->uptime = 86400;
		si->totalram = 4UL << 30;
		si->freeram = 2UL << 30;
		si->procs = 1;
		si->mem_unit = 1;
		return 0;
	}
	case SYS_getrlimit:
	case SYS_prlimit64: {
		/* prlimit64(pid, resource, new, old); getrlimit(resource, old). */
		int res = (int)(n == SYS_getrlimit ? a : b);
		struct rlimit *old = (struct rlimit *)(n == SYS_getrlimit ? b : d);
		if (n == SYS_prlimit64 && c)
			return -EPERM; /* limits are not changed */
		if (old) {
			old->rlim_cur = old->rlim_max = RLIM_INFINITY;
			if (res == RLIMIT_NOFILE)
				old->rlim_cur = old->rlim_max = 1024;
			else if (res == RLIMIT_STACK)
				old->rlim_cur = 8UL << 20;
		}
		return 0;
	}
	case SYS_setrlimit:
		return -EPERM;
	/* The scheduling priority: nice 0 (the raw call answers 20 - nice), and
	 * no change (EPERM), as the native world answers (symtest_world.c):
	 * toybox's `nice CMD` failed in the engine and went on natively. */
	case SYS_getpriority:
		return 20;
	case SYS_setpriority:
		return -EPERM;
	case SYS_nanosleep:
	case SYS_clock_nanosleep:
		return 0; /* time does not pass: the clock is fixed */
	case SYS_statfs:
	case SYS_fstatfs: {
		/* One local ext4-like file system, for a path that names a file
		 * (`df ""` fails natively: an empty path names none). */
		if (n == SYS_statfs) {
			long r = __symtest_access((const char *)a, 0 /* F_OK */, 0);
			if (r < 0)
				return r;
		}
		struct statfs *f = (struct statfs *)b;
		memset(f, 0, sizeof *f);
		f->f_type = 0xEF53;
		f->f_bsize = 4096;
		f->f_frsize = 4096;
		f->f_blocks = 1UL << 20;
		f->f_bfree = 1UL << 19;
		f->f_bavail = 1UL << 19;
		f->f_files = 1UL << 16;
		f->f_ffree = 1UL << 15;
		f->f_namelen = 255;
		return 0;
	}
	case SYS_fork:
	case SYS_vfork:
	case SYS_clone:
#ifdef SYS_clone3
	case SYS_clone3:
#endif
	case SYS_socket:
	case SYS_socketpair:
	case SYS_getdents:
	case SYS_getdents64:
	case SYS_splice:
	case SYS_tee:
	case SYS_vmsplice:
	case SYS_sendfile:
	case SYS_copy_file_range:
		return no_such_world(n);
	case SYS_execve:
		return do_execve((const char *)a);
	case SYS_kill:
		/* No other process: fork and clone fail, so a signal to another
		 * process, or to every process (-1), fails with ESRCH, and so it
		 * does natively (symtest_fail.c traps kill): `pv -d 1` watched
		 * the host's init natively. Probing the program itself (signal
		 * 0, to its pid or its group) succeeds; other signals to itself
		 * are not modelled (as raise's tkill): ENOSYS, and natively too
		 * (symtest_world.c answers kill). */
		if (a != 0 && a != PID)
			return -ESRCH;
		if (b == 0)
			return 0;
		break;
	case SYS_getrandom: {
		/* Deterministic "randomness". */
		memset((void *)a, 0x5a, (size_t)b);
		return b;
	}
	}
	unmodelled(n);
	return -ENOSYS;
}
