/*
 * symtest_world.c - the POSIX model's world for a natively run program, the
 * half of the failure shim (symtest_fail.c) that answers as the model does
 * where Linux would let the program reach the host: a seccomp filter, armed
 * by the shim's constructor (or symtest_world_arm, linked), makes fork,
 * vfork, clone and clone3 fail with ENOSYS (the model runs one process),
 * execve with ENOENT for a missing file and EACCES for another (no other
 * program runs), kill of another process with ESRCH (and of the program
 * itself with a signal, ENOSYS: the model delivers none), socket and socketpair
 * with EAFNOSUPPORT (no network), getdents with ENOSYS (no directory
 * listing), setting or adjusting the clock, making or removing a directory
 * and System V IPC with ENOSYS (the model has no such calls); resource limits
 * and the scheduling priority are the model's and none changes (EPERM); open
 * answers as the model's does (no host device, FIFO or socket but /dev/null,
 * no compiled locales, /proc's files empty).  Only the calls the program's C
 * library makes are concerned.  The calls that need an answer computed here
 * (execve, kill, open, the resource limits and priority, and the program's
 * own handling of SIGSYS, which stays the shim's) are trapped to the shim's
 * SIGSYS handler, which asks this file.
 *
 * Freestanding, x86_64 Linux only, as the rest of the shim (symtest_fail.h).
 */
#include "symtest_fail.h"

#if SYMTEST_SHIM

/* Armed: the calls of the program's C library (those made from its code,
 * [world_lo, world_hi); everywhere when world_scoped is 0) answer as the
 * POSIX model does. */
static int world, world_scoped;
static uint64_t world_lo, world_hi;

int symtest_world_applies(void *info) {
  if (!world)
    return 0;
  if (!world_scoped)
    return 1;
  uint64_t ip = *(uint64_t *)((char *)info + SI_CALL_ADDR_OFFSET);
  return ip >= world_lo && ip < world_hi;
}

static int str_eq(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

/* A path under the C library's compiled locales (glibc's /usr/lib/locale:
 * locale-archive and one directory per locale). The model's world has none:
 * its C library under glibc's rules grants C and POSIX only
 * (libc-models/musl/src/locale/locale_map.c), so the host's are not opened. */
static int locale_file(const char *path) {
  const char *dir = "/usr/lib/locale/";
  while (*dir && *path == *dir)
    path++, dir++;
  return !*dir;
}

/* struct stat (x86_64): st_mode at 24, st_size at 48; struct statfs: f_type at 0. */
#define ST_MODE(st) (*(const uint32_t *)((const char *)(st) + 24))
#define ST_SIZE(st) (*(const long *)((const char *)(st) + 48))
#define S_FMT 0170000u
#define S_REG 0100000u
#define S_DIR 0040000u

/* The kernel's pseudo-file systems whose files the model reads as host files:
 * read-only (host files are), and read up to their `stat` size (0 in /proc:
 * empty). */
static int pseudo_fs(long type) {
  switch ((unsigned long)type) {
  case 0x9fa0:     /* proc */
  case 0x62656572: /* sysfs */
  case 0x27e0eb:   /* cgroup */
  case 0x63677270: /* cgroup2 */
  case 0x64626720: /* debugfs */
  case 0x74726163: /* tracefs */
  case 0x73636673: /* securityfs */
  case 0xde5e81e4: /* efivarfs */
  case 0x62656570: /* configfs */
    return 1;
  }
  return 0;
}

/* open, openat and creat as the model answers them (libc-models/posix/fd.c):
 * a device, FIFO or socket (anything but a regular file or a directory) other
 * than /dev/null is not opened (EACCES: reading /dev/zero never ends, opening
 * a FIFO blocks, and a device is the host's, not the test's); a file of a
 * kernel pseudo-file system opens read-only, and one whose size is 0 (as in
 * /proc, but /proc/self/maps) reads as empty; a relative path under another
 * directory's descriptor fails with ENOSYS. */
long symtest_world_open(int nr, long a1, long a2, long a3, long a4, long a5, long a6) {
  long dirfd = -100 /* AT_FDCWD */, flags = a2;
  const char *path = (const char *)a1;
  if (nr == NR_creat)
    flags = 01101; /* O_CREAT|O_WRONLY|O_TRUNC */
  if (nr == NR_openat) {
    dirfd = (int)a1; /* an int: the register's upper half is not its */
    path = (const char *)a2;
    flags = a3;
  }
  int checked = path && !is_coverage_file(path);
  if (checked && dirfd != -100 && path[0] && path[0] != '/')
    return -38; /* ENOSYS */
  if (checked && locale_file(path))
    return -2; /* ENOENT */
  /* (O_CREAT|O_EXCL on an existing file fails with EEXIST first.) */
  if (checked && path[0] && !str_eq(path, "/dev/null") && (flags & 0300) != 0300) {
    char st[144];
    if (symtest_fail_raw(NR_newfstatat, dirfd, (long)path, (long)st, 0, 0, 0) == 0) {
      uint32_t fmt = ST_MODE(st) & S_FMT;
      if (fmt != S_REG && fmt != S_DIR)
        return -13; /* EACCES */
    }
  }
  long fd = symtest_fail_raw(nr, a1, a2, a3, a4, a5, a6);
  if (!checked || fd < 0)
    return fd;
  char st[144], fs[120];
  if (symtest_fail_raw(NR_fstat, fd, (long)st, 0, 0, 0, 0) != 0 || (ST_MODE(st) & S_FMT) != S_REG ||
      symtest_fail_raw(NR_fstatfs, fd, (long)fs, 0, 0, 0, 0) != 0 || !pseudo_fs(*(long *)fs))
    return fd;
  if ((flags & 3) != 0 /* O_RDONLY */ || (flags & 01000 /* O_TRUNC */)) {
    symtest_fail_raw(NR_close, fd, 0, 0, 0, 0, 0);
    return -13; /* EACCES: host files are read-only */
  }
  /* The process's own map is left as it is: glibc's pthread_getattr_np reads
   * it when a sanitizer reports an error (an empty one fails the report). */
  if (ST_SIZE(st) != 0 || str_eq(path, "/proc/self/maps") || str_eq(path, "/proc/thread-self/maps"))
    return fd;
  symtest_fail_raw(NR_close, fd, 0, 0, 0, 0, 0);
  return symtest_fail_raw(NR_memfd_create, (long)"symtest-empty",
                          (flags & 02000000 /* O_CLOEXEC */) ? 1 /* MFD_CLOEXEC */ : 0, 0, 0, 0, 0);
}

/* SIGSYS stays ours (symtest_world_install traps the program's rt_sigaction and
 * rt_sigprocmask): a program that ignores SIGSYS (pv does, for msgget), sets
 * its own handler or blocks every signal would otherwise be killed by the
 * next trapped call. Its disposition of SIGSYS is kept here and reported back
 * to it; a mask it sets never blocks SIGSYS (nor SIGKILL and SIGSTOP, as the
 * kernel says). */
static struct kernel_sigaction program_sigsys;
#define SIGSYS_BIT (1UL << (31 - 1))

long symtest_world_keep_sigsys(int nr, long a1, long a2, long a3, void *ucontext) {
  if (nr == NR_rt_sigaction) {
    struct kernel_sigaction *act = (struct kernel_sigaction *)a2;
    struct kernel_sigaction *old = (struct kernel_sigaction *)a3;
    struct kernel_sigaction next = act ? *act : program_sigsys;
    if (old)
      *old = program_sigsys;
    program_sigsys = next;
    return 0;
  }
  uint64_t *mask = (uint64_t *)((char *)ucontext + UC_SIGMASK_OFFSET);
  uint64_t current = *mask;
  if (a2) {
    uint64_t set = *(const uint64_t *)a2, next;
    if (a1 == 0 /* SIG_BLOCK */)
      next = current | set;
    else if (a1 == 1 /* SIG_UNBLOCK */)
      next = current & ~set;
    else if (a1 == 2 /* SIG_SETMASK */)
      next = set;
    else
      return -22; /* EINVAL */
    if (a3)
      *(uint64_t *)a3 = current;
    *mask = next & ~(SIGSYS_BIT | (1UL << (9 - 1)) | (1UL << (19 - 1)));
    return 0;
  }
  if (a3)
    *(uint64_t *)a3 = current;
  return 0;
}

/* getrlimit, setrlimit and prlimit64 as the model answers them
 * (libc-models/posix/syscall.c): 1024 descriptors, an 8 MiB stack without a
 * hard limit, everything else unlimited; no limit is changed (EPERM). The
 * host's limits are not the engine's: pcretest -S 0 lowered its stack limit
 * natively and went on, where the engine's setrlimit failed. */
static long world_rlimit(int nr, long a1, long a2, long a3, long a4) {
  long res = nr == NR_prlimit64 ? a2 : a1;
  uint64_t *old = (uint64_t *)(nr == NR_getrlimit ? a2 : nr == NR_prlimit64 ? a4 : 0);
  if (nr == NR_setrlimit || (nr == NR_prlimit64 && a3))
    return -1; /* EPERM */
  if (old) {
    old[0] = old[1] = ~(uint64_t)0; /* RLIM_INFINITY */
    if (res == 7 /* RLIMIT_NOFILE */)
      old[0] = old[1] = 1024;
    else if (res == 3 /* RLIMIT_STACK */)
      old[0] = 8UL << 20;
  }
  return 0;
}

int symtest_world_call(int nr, long a1, long a2, long a3, long a4, void *info, long *r) {
  if ((nr == NR_getrlimit || nr == NR_setrlimit || nr == NR_prlimit64) && symtest_world_applies(info)) {
    *r = world_rlimit(nr, a1, a2, a3, a4);
    return 1;
  }
  if ((nr == NR_getpriority || nr == NR_setpriority) && symtest_world_applies(info)) {
    /* The scheduling priority: nice 0 (the raw call answers 20 - nice), and
     * no change (EPERM), as the model's: toybox's `nice CMD` went on natively
     * where the engine's setpriority failed. */
    *r = nr == NR_getpriority ? 20 : -1 /* EPERM */;
    return 1;
  }
  if (nr == NR_execve && symtest_world_applies(info)) {
    /* No other program runs (the model's execve): ENOENT and the like for a
     * path that names no file, as the kernel says, else EACCES. */
    long found = a1 ? symtest_fail_raw(NR_access, a1, 0 /* F_OK */, 0, 0, 0, 0) : -14 /* EFAULT */;
    *r = found < 0 ? found : -13 /* EACCES */;
    return 1;
  }
  if (nr == NR_kill && symtest_world_applies(info)) {
    /* No other process (the model's kill): a signal to another process or
     * group, or to every process, fails with ESRCH; probing the program's
     * pid or group (0, signal 0) succeeds, and a signal it sends itself
     * through kill fails with ENOSYS, as the model does not deliver it
     * (toybox's `kill +0` was killed by its SIGTERM natively, where the
     * engine's kill failed and it exited 1). */
    long self = symtest_fail_raw(NR_getpid, 0, 0, 0, 0, 0, 0);
    if (a1 != 0 && a1 != self)
      *r = -3; /* ESRCH */
    else
      *r = a2 == 0 ? symtest_fail_raw(nr, self, 0, 0, 0, 0, 0) : -38 /* ENOSYS */;
    return 1;
  }
  return 0;
}

/* ---- the filter ------------------------------------------------------------ */

static uint64_t hex_value(const char **p) {
  uint64_t v = 0;
  for (;; (*p)++) {
    char c = **p;
    if (c >= '0' && c <= '9')
      v = v * 16 + (uint64_t)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v = v * 16 + (uint64_t)(c - 'a' + 10);
    else
      return v;
  }
}

/* A C library's file name: glibc's libc.so.6 (libc-2.x.so), musl's libc.so
 * or ld-musl-ARCH.so.1. */
static int libc_name(const char *base) {
  return starts_with(base, "libc.so") || starts_with(base, "libc-") || starts_with(base, "ld-musl-") ||
         starts_with(base, "libc.musl-");
}

/* One line of /proc/self/maps ("lo-hi r-xp off dev inode   path"): an
 * executable mapping of the C library widens [*lo, *hi). */
static void maps_line(const char *l, uint64_t *lo, uint64_t *hi) {
  uint64_t a = hex_value(&l);
  if (*l++ != '-')
    return;
  uint64_t b = hex_value(&l);
  if (*l++ != ' ' || l[2] != 'x')
    return;
  const char *path = 0;
  for (const char *q = l; *q; q++)
    if (*q == '/')
      path = q + 1;
  if (!path || !libc_name(path))
    return;
  if (a < *lo)
    *lo = a;
  if (b > *hi)
    *hi = b;
}

/* The text of the process's C library: 0 when found. */
static int libc_text(uint64_t *lo, uint64_t *hi) {
  long fd = SYS(NR_open, "/proc/self/maps", 02000000 /* O_RDONLY|O_CLOEXEC */, 0);
  if (fd < 0)
    return -1;
  static char buf[8192];
  char line[512];
  size_t n = 0;
  *lo = ~(uint64_t)0;
  *hi = 0;
  for (;;) {
    long r = SYS(NR_read, fd, buf, sizeof buf);
    if (r <= 0)
      break;
    for (long i = 0; i < r; i++) {
      if (buf[i] != '\n') {
        if (n + 1 < sizeof line)
          line[n++] = buf[i];
        continue;
      }
      line[n] = 0;
      maps_line(line, lo, hi);
      n = 0;
    }
  }
  SYS(NR_close, fd, 0, 0);
  return *lo < *hi ? 0 : -1;
}

/* The model's world for the program (the POSIX model, libc-models/posix):
 * no other process (fork, vfork, clone and clone3 fail with ENOSYS), no other
 * program (execve fails: ENOENT for a path naming no file, else EACCES;
 * execveat ENOSYS; kill of another process fails with ESRCH), no network (socket, socketpair: EAFNOSUPPORT, as a kernel
 * built without networking answers), no directory
 * listing (getdents: ENOSYS), no copy made by the kernel between
 * descriptors (splice, tee, vmsplice, sendfile, copy_file_range: ENOSYS), no
 * directory made or removed (mkdir, mkdirat, rmdir: ENOSYS), no System V
 * message queue, semaphore or shared memory (ENOSYS), the model's resource
 * limits (getrlimit, setrlimit, prlimit64: world_rlimit) and scheduling
 * priority (getpriority: nice 0; setpriority: EPERM), and
 * open answers as symtest_world_open says. What the
 * engine saw fail fails natively the same way, rather than running a
 * command, listing the host's interfaces, processes or directories, or
 * reading its devices and /proc.
 *
 * Only the calls the program makes through its C library are concerned (the
 * executable text of libc.so / ld-musl, when /proc/self/maps shows it): a
 * sanitizer runtime starts its symbolizer with its own system calls, and that
 * program, exec'd with this filter, makes its calls from another address. */
int symtest_world_install(void) {
  uint64_t lo = 0, hi = 0;
  int scoped = libc_text(&lo, &hi) == 0;
  symtest_fail_install_handler();
  uint64_t tlo = (uint64_t)(uintptr_t)symtest_fail_raw;
  uint64_t thi = (uint64_t)(uintptr_t)symtest_fail_raw_end;
  if ((tlo >> 32) != (thi >> 32))
    die("trampoline straddles a 4 GiB boundary");

  static const int enosys[] = {NR_fork,     NR_vfork,     NR_clone,    NR_clone3,
                               NR_execveat, NR_getdents,
                               NR_getdents64, NR_openat2,   NR_sendfile,   NR_splice,
                               NR_tee,      NR_vmsplice,  NR_copy_file_range,
                               /* the host's clock is not the model's to set */
                               NR_settimeofday, NR_clock_settime, NR_adjtimex,
                               NR_clock_adjtime,
                               /* the model has no directories to make or remove */
                               NR_mkdir, NR_mkdirat, NR_rmdir,
                               /* nor System V IPC objects */
                               NR_msgget, NR_msgsnd, NR_msgrcv, NR_msgctl, NR_semget,
                               NR_semop, NR_semctl, NR_semtimedop, NR_shmget, NR_shmat,
                               NR_shmdt, NR_shmctl};
  static const int eafnosupport[] = {NR_socket, NR_socketpair};
  static const int trapped[] = {NR_execve,         NR_open, NR_openat,    NR_creat,
                                NR_rt_sigaction,   NR_rt_sigprocmask, NR_kill,
                                NR_getrlimit,      NR_setrlimit,      NR_prlimit64,
                                NR_getpriority,    NR_setpriority};
  enum { L_ALLOW, L_TRAP, L_ENOSYS, L_EAFNOSUPPORT, L_IN, L_HI, L_NR, L_COUNT, NEXT = -1 };
  struct sock_filter prog[96];
  int jt[96], jf[96];
  unsigned label[L_COUNT], len = 0;
#define JUMP(op, k, t, f) (jt[len] = (t), jf[len] = (f), ADD(BPF_JUMP(BPF_JMP | (op) | BPF_K, (k), 0, 0)))
#define STMT(code, k) (jt[len] = jf[len] = NEXT, ADD(BPF_STMT((code), (k))))
#define LOAD(field) STMT(BPF_LD | BPF_W | BPF_ABS, (field))
  const unsigned ip = offsetof(struct seccomp_data, instruction_pointer);
  /* Other architectures: allow. */
  LOAD(offsetof(struct seccomp_data, arch));
  JUMP(BPF_JEQ, AUDIT_ARCH_X86_64, NEXT, L_ALLOW);
  /* The trampoline's calls (the handler's own): allow. */
  LOAD(ip + 4);
  JUMP(BPF_JEQ, (uint32_t)(tlo >> 32), NEXT, L_IN);
  LOAD(ip);
  JUMP(BPF_JGE, (uint32_t)tlo, NEXT, L_IN);
  JUMP(BPF_JGT, (uint32_t)thi, L_IN, L_ALLOW);
  label[L_IN] = len;
  if (scoped) {
    /* lo <= ip < hi, on 64 bits, else allow. */
    LOAD(ip + 4);
    JUMP(BPF_JGE, (uint32_t)(lo >> 32), NEXT, L_ALLOW);
    JUMP(BPF_JGT, (uint32_t)(lo >> 32), L_HI, NEXT);
    LOAD(ip);
    JUMP(BPF_JGE, (uint32_t)lo, NEXT, L_ALLOW);
    LOAD(ip + 4);
    label[L_HI] = len;
    JUMP(BPF_JGT, (uint32_t)(hi >> 32), L_ALLOW, NEXT);
    JUMP(BPF_JGE, (uint32_t)(hi >> 32), NEXT, L_NR);
    LOAD(ip);
    JUMP(BPF_JGE, (uint32_t)hi, L_ALLOW, L_NR);
  }
  label[L_NR] = len;
  LOAD(offsetof(struct seccomp_data, nr));
  for (size_t i = 0; i < sizeof enosys / sizeof enosys[0]; i++)
    JUMP(BPF_JEQ, (uint32_t)enosys[i], L_ENOSYS, NEXT);
  for (size_t i = 0; i < sizeof eafnosupport / sizeof eafnosupport[0]; i++)
    JUMP(BPF_JEQ, (uint32_t)eafnosupport[i], L_EAFNOSUPPORT, NEXT);
  for (size_t i = 0; i < sizeof trapped / sizeof trapped[0]; i++)
    JUMP(BPF_JEQ, (uint32_t)trapped[i], L_TRAP, NEXT);
  label[L_ALLOW] = len;
  STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  label[L_TRAP] = len;
  STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
  label[L_ENOSYS] = len;
  STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 38 /* ENOSYS */);
  label[L_EAFNOSUPPORT] = len;
  STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 97 /* EAFNOSUPPORT */);
  for (unsigned i = 0; i < len; i++) {
    if (jt[i] != NEXT)
      prog[i].jt = (uint8_t)(label[jt[i]] - i - 1);
    if (jf[i] != NEXT)
      prog[i].jf = (uint8_t)(label[jf[i]] - i - 1);
  }
#undef JUMP
#undef STMT
#undef LOAD
  world_lo = lo;
  world_hi = hi;
  world_scoped = scoped;
  world = 1;
  struct sock_fprog fprog = {(unsigned short)len, prog};
  if (SYS(NR_prctl, 38 /* PR_SET_NO_NEW_PRIVS */, 1, 0) != 0 ||
      SYS(NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) {
    world = 0;
    return -1;
  }
  return 0;
}
#endif
