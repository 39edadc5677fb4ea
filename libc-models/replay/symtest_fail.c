/*
 * symtest_fail.c - LD_PRELOAD shim that makes the k-th system call of a class
 * fail, so that a natively replayed program sees the same failed calls as the
 * path the engine explored with `--max-fail N` (KLEE paper, section 4.2/4.3).
 *
 * Environment:
 *   SYMTEST_FAIL="read=3,open=1"   fail the 3rd read-class and the 1st
 *                                  open-class system call (0 = never).
 *   SYMTEST_FAIL_LOG=PATH          append "fail CLASS K SYSCALL" for every
 *                                  injected failure (optional).
 *   SYMTEST_CLOCK=SECONDS          every clock reads this time.
 *   SYMTEST_ARG_GUARD=1            argv[1..] end right before an unmapped
 *                                  page (see guard_args).
 *
 * Classes and errno values (ENV_CONTRACT.md, same as the POSIX model):
 *   read   read readv pread64                    EIO
 *   write  write writev pwrite64                 EIO
 *   close  close                                 EIO
 *   open   open openat creat                     ENOENT
 *   lseek  lseek                                 EIO
 *   stat   stat fstat lstat newfstatat statx access   ENOENT
 *   getcwd getcwd                                ERANGE
 *   dup    dup dup2 dup3 fcntl(F_DUPFD, F_DUPFD_CLOEXEC)   EMFILE
 *
 * How: a constructor installs a seccomp filter (SECCOMP_RET_TRAP) for the
 * system calls of the classes that have a failure to inject, and a SIGSYS
 * handler.  The handler counts the call in its class and either returns
 * -errno or performs the call itself from a small trampoline whose address
 * range the filter lets through.  Counting starts at the constructor, i.e.
 * before main (no libc system call of these classes runs between the two).
 * No ptrace.  Without SYMTEST_FAIL (or with only zeros) nothing is installed.
 *
 * Calls on coverage data files, written at exit (*.gcda of gcov, *.profraw
 * of clang's source-based coverage), are neither counted nor failed, so a
 * coverage build replays like a plain one.
 *
 * The POSIX model's world (install_world; always, from the constructor): a
 * second filter makes the calls the program's C library makes answer as the
 * model does where Linux would let the program reach the host: fork, vfork,
 * clone and clone3 fail with ENOSYS (the model runs one process), execve with
 * ENOENT for a missing file and EACCES for another (no other program runs),
 * socket and socketpair with EAFNOSUPPORT (no network), getdents with ENOSYS (no
 * directory listing), setting or adjusting the clock with ENOSYS (the model
 * has no such call; natively as root, toybox's `date 0:0` set the host's),
 * making or removing a directory with ENOSYS (the model has no such call), a
 * host device, FIFO or socket but /dev/null does not
 * open (EACCES), the C library's compiled locales are not there (ENOENT),
 * and a file of /proc reads as empty (its size, 0). So a
 * shell's command, `ip`, `top` or `beep` end as they did in the engine.
 *
 * The shim is freestanding (no libc calls, only `environ`), so the same
 * object works in musl and glibc processes.  x86_64 Linux only.
 *
 * Linked into a program instead (compiled with -DSYMTEST_FAIL_LINKED, as the
 * regression suites `cargo symtest` emits do), there is no constructor: the
 * program arms the shim itself, right before the code under test runs, with
 *   int symtest_fail_arm(const char *spec, const char *log_path);
 * (spec as SYMTEST_FAIL, log_path as SYMTEST_FAIL_LOG or NULL; both strings
 * must stay valid; returns 0, or -1 where the shim is not supported).
 * The world is armed the same way, by int symtest_world_arm(void) (0, or -1
 * where it is not supported: the program then runs in the host's world).
 * Limits: a program that installs its own SIGSYS handler replaces ours, and
 * one that blocks SIGSYS dies of the first trapped call; a statically linked
 * program gets no shim.
 */
#if defined(SYMTEST_FAIL_LINKED) && !(defined(__x86_64__) && defined(__linux__))
/* Not x86_64 Linux: no failure injection (the suite checks such tests for no crash). */
int symtest_fail_arm(const char *spec, const char *log_path);
int symtest_fail_arm(const char *spec, const char *log_path) {
  (void)spec;
  (void)log_path;
  return -1;
}
int symtest_world_arm(void);
int symtest_world_arm(void) { return -1; }
#else
#include <stddef.h>
#include <stdint.h>

/* The kernel ABI bits of <linux/filter.h>, <linux/seccomp.h> and
 * <linux/audit.h>, spelled out so that the shim also builds where no kernel
 * headers are installed (musl-gcc has none). */
struct sock_filter {
  uint16_t code;
  uint8_t jt;
  uint8_t jf;
  uint32_t k;
};
struct sock_fprog {
  unsigned short len;
  struct sock_filter *filter;
};
struct seccomp_data {
  int nr;
  uint32_t arch;
  uint64_t instruction_pointer;
  uint64_t args[6];
};
#define BPF_LD 0x00
#define BPF_W 0x00
#define BPF_ABS 0x20
#define BPF_JMP 0x05
#define BPF_JEQ 0x10
#define BPF_JGT 0x20
#define BPF_JGE 0x30
#define BPF_K 0x00
#define BPF_RET 0x06
#define BPF_STMT(code, k) {(uint16_t)(code), 0, 0, (uint32_t)(k)}
#define BPF_JUMP(code, k, jt, jf) {(uint16_t)(code), (uint8_t)(jt), (uint8_t)(jf), (uint32_t)(k)}
#define AUDIT_ARCH_X86_64 0xc000003eu
#define SECCOMP_RET_TRAP 0x00030000u
#define SECCOMP_RET_ALLOW 0x7fff0000u
#define SECCOMP_RET_ERRNO 0x00050000u
#define SECCOMP_SET_MODE_FILTER 1

extern char **environ;

/* ---- raw system calls through the trampoline ---------------------------- */

long symtest_fail_raw(long nr, long a1, long a2, long a3, long a4, long a5,
                      long a6);
extern const char symtest_fail_raw_end[];
void symtest_fail_restorer(void);

__asm__(".text\n"
        ".p2align 6\n"
        ".hidden symtest_fail_raw\n"
        ".globl symtest_fail_raw\n"
        ".type symtest_fail_raw,@function\n"
        "symtest_fail_raw:\n"
        "  mov %rdi, %rax\n"
        "  mov %rsi, %rdi\n"
        "  mov %rdx, %rsi\n"
        "  mov %rcx, %rdx\n"
        "  mov %r8, %r10\n"
        "  mov %r9, %r8\n"
        "  mov 8(%rsp), %r9\n"
        "  syscall\n"
        ".hidden symtest_fail_raw_end\n"
        ".globl symtest_fail_raw_end\n"
        "symtest_fail_raw_end:\n"
        "  ret\n"
        ".hidden symtest_fail_restorer\n"
        ".globl symtest_fail_restorer\n"
        ".type symtest_fail_restorer,@function\n"
        "symtest_fail_restorer:\n"
        "  mov $15, %eax\n" /* rt_sigreturn */
        "  syscall\n"
        "  hlt\n");

#define SYS(nr, a, b, c) symtest_fail_raw((nr), (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* x86_64 system call numbers */
enum {
  NR_read = 0, NR_write = 1, NR_open = 2, NR_close = 3, NR_stat = 4,
  NR_fstat = 5, NR_lstat = 6, NR_lseek = 8, NR_rt_sigaction = 13, NR_rt_sigprocmask = 14,
  NR_pread64 = 17, NR_pwrite64 = 18, NR_readv = 19, NR_writev = 20,
  NR_access = 21, NR_dup = 32, NR_dup2 = 33, NR_fcntl = 72, NR_getcwd = 79,
  NR_creat = 85, NR_prctl = 157, NR_openat = 257, NR_newfstatat = 262,
  NR_dup3 = 292, NR_seccomp = 317, NR_statx = 332, NR_exit_group = 231,
  NR_gettimeofday = 96, NR_time = 201, NR_clock_gettime = 228,
  NR_mmap = 9, NR_mprotect = 10,
  /* the model's world (install_world) */
  NR_clone = 56, NR_fork = 57, NR_vfork = 58, NR_execve = 59, NR_socket = 41,
  NR_socketpair = 53, NR_getdents = 78, NR_getdents64 = 217, NR_execveat = 322,
  NR_clone3 = 435, NR_openat2 = 437, NR_fstatfs = 138, NR_memfd_create = 319,
  NR_sendfile = 40, NR_splice = 275, NR_tee = 276, NR_vmsplice = 278,
  NR_copy_file_range = 326, NR_kill = 62, NR_getpid = 39, NR_settimeofday = 164,
  NR_clock_settime = 227, NR_adjtimex = 159, NR_clock_adjtime = 305,
  NR_mkdir = 83, NR_rmdir = 84, NR_mkdirat = 258, NR_shmget = 29, NR_shmat = 30,
  NR_shmctl = 31, NR_semget = 64, NR_semop = 65, NR_semctl = 66, NR_shmdt = 67,
  NR_msgget = 68, NR_msgsnd = 69, NR_msgrcv = 70, NR_msgctl = 71, NR_semtimedop = 220
};

/* ---- classes ------------------------------------------------------------ */

enum { C_READ, C_WRITE, C_CLOSE, C_OPEN, C_LSEEK, C_STAT, C_GETCWD, C_DUP, C_NUM };

static const char *const class_name[C_NUM] = {"read", "write", "close", "open",
                                              "lseek", "stat", "getcwd", "dup"};
static const int class_errno[C_NUM] = {5 /* EIO */, 5, 5, 2 /* ENOENT */, 5, 2,
                                       34 /* ERANGE */, 24 /* EMFILE */};

struct sysinfo_entry {
  int nr;
  int cls;
  const char *name;
};

static const struct sysinfo_entry calls[] = {
    {NR_read, C_READ, "read"},           {NR_readv, C_READ, "readv"},
    {NR_pread64, C_READ, "pread64"},     {NR_write, C_WRITE, "write"},
    {NR_writev, C_WRITE, "writev"},      {NR_pwrite64, C_WRITE, "pwrite64"},
    {NR_close, C_CLOSE, "close"},        {NR_open, C_OPEN, "open"},
    {NR_openat, C_OPEN, "openat"},       {NR_creat, C_OPEN, "creat"},
    {NR_lseek, C_LSEEK, "lseek"},        {NR_stat, C_STAT, "stat"},
    {NR_fstat, C_STAT, "fstat"},         {NR_lstat, C_STAT, "lstat"},
    {NR_newfstatat, C_STAT, "newfstatat"}, {NR_statx, C_STAT, "statx"},
    {NR_access, C_STAT, "access"},       {NR_getcwd, C_GETCWD, "getcwd"},
    {NR_dup, C_DUP, "dup"},              {NR_dup2, C_DUP, "dup2"},
    {NR_dup3, C_DUP, "dup3"},            {NR_fcntl, C_DUP, "fcntl"},
};
#define NCALLS (sizeof calls / sizeof calls[0])

static long fail_at[C_NUM];  /* k: fail the k-th call of the class; 0 never */
/* SYMTEST_CLOCK: the seconds every clock reads (the POSIX model's fixed
 * clock), or -1: the real clocks. */
static long fixed_clock = -1;
static long counter[C_NUM];  /* calls of the class so far */
static const char *log_path; /* SYMTEST_FAIL_LOG */

/* File descriptors of coverage data files: not counted, never failed. */
#define MAX_FD 4096
static unsigned char ignored_fd[MAX_FD / 8];

static int fd_ignored(long fd) {
  return fd >= 0 && fd < MAX_FD && (ignored_fd[fd / 8] >> (fd % 8)) & 1;
}
static void fd_set_ignored(long fd, int on) {
  if (fd < 0 || fd >= MAX_FD)
    return;
  if (on)
    ignored_fd[fd / 8] |= (unsigned char)(1u << (fd % 8));
  else
    ignored_fd[fd / 8] &= (unsigned char)~(1u << (fd % 8));
}

/* ---- tiny string helpers (no libc) -------------------------------------- */

static size_t slen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

static int starts_with(const char *s, const char *p) {
  while (*p)
    if (*s++ != *p++)
      return 0;
  return 1;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = slen(s), m = slen(suffix), i;
  if (n < m)
    return 0;
  for (i = 0; i < m; i++)
    if (s[n - m + i] != suffix[i])
      return 0;
  return 1;
}

static int is_coverage_file(const char *path) {
  return path && (ends_with(path, ".gcda") || ends_with(path, ".profraw"));
}

static void put(const char *s) { SYS(NR_write, 2, s, slen(s)); }

static void die(const char *msg) {
  put("symtest-fail: ");
  put(msg);
  put("\n");
  SYS(NR_exit_group, 125, 0, 0); /* the replay-mismatch code */
}

static char *utoa(unsigned long v, char *end) {
  *--end = 0;
  do {
    *--end = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  return end;
}

static void log_failure(int cls, long k, const char *name) {
  if (!log_path)
    return;
  long fd = SYS(NR_open, log_path, 02101 /* O_WRONLY|O_CREAT|O_APPEND */, 0644);
  if (fd < 0)
    return;
  char buf[128], num[24];
  size_t n = 0;
  const char *parts[] = {"fail ", class_name[cls], " ", utoa((unsigned long)k, num + sizeof num),
                         " ", name, "\n"};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    for (const char *p = parts[i]; *p && n < sizeof buf; p++)
      buf[n++] = *p;
  SYS(NR_write, fd, buf, n);
  SYS(NR_close, fd, 0, 0);
}

/* ---- the SIGSYS handler ------------------------------------------------- */

struct kernel_sigaction {
  void *handler;
  unsigned long flags;
  void (*restorer)(void);
  unsigned long mask;
};


/* Offsets into the kernel's ucontext (x86_64): uc_mcontext at 40, then the
 * general registers r8..r15, rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip. */
enum { G_R8 = 0, G_R9 = 1, G_R10 = 2, G_RDI = 8, G_RSI = 9, G_RDX = 12, G_RAX = 13 };
#define UC_GREGS_OFFSET 40
/* The kernel's ucontext: uc_sigmask (the mask restored when the handler
 * returns) after uc_mcontext's 256 bytes. */
#define UC_SIGMASK_OFFSET 296
/* siginfo for SIGSYS: si_syscall at offset 24. */
#define SI_SYSCALL_OFFSET 24

/* siginfo for SIGSYS: si_call_addr (where the call was made) at offset 16. */
#define SI_CALL_ADDR_OFFSET 16

/* ---- the model's world (install_world) ----------------------------------- */

/* Armed: the calls of the program's C library (those made from its code,
 * [world_lo, world_hi); everywhere when world_scoped is 0) answer as the
 * POSIX model does. */
static int world, world_scoped;
static uint64_t world_lo, world_hi;

static int world_applies(void *info) {
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
static long world_open(int nr, long a1, long a2, long a3, long a4, long a5, long a6) {
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

static const struct sysinfo_entry *lookup(int nr) {
  for (size_t i = 0; i < NCALLS; i++)
    if (calls[i].nr == nr)
      return &calls[i];
  return 0;
}

/* SIGSYS stays ours (install_world traps the program's rt_sigaction and
 * rt_sigprocmask): a program that ignores SIGSYS (pv does, for msgget), sets
 * its own handler or blocks every signal would otherwise be killed by the
 * next trapped call. Its disposition of SIGSYS is kept here and reported back
 * to it; a mask it sets never blocks SIGSYS (nor SIGKILL and SIGSTOP, as the
 * kernel says). */
static struct kernel_sigaction program_sigsys;
#define SIGSYS_BIT (1UL << (31 - 1))

static long keep_sigsys(int nr, long a1, long a2, long a3, void *ucontext) {
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

static void on_sigsys(int sig, void *info, void *ucontext) {
  (void)sig;
  int nr = *(int *)((char *)info + SI_SYSCALL_OFFSET);
  uint64_t *g = (uint64_t *)((char *)ucontext + UC_GREGS_OFFSET);
  long a1 = (long)g[G_RDI], a2 = (long)g[G_RSI], a3 = (long)g[G_RDX];
  long a4 = (long)g[G_R10], a5 = (long)g[G_R8], a6 = (long)g[G_R9];
  if ((nr == NR_rt_sigaction && a1 == 31 /* SIGSYS */ && a4 == 8) ||
      (nr == NR_rt_sigprocmask && a4 == 8)) {
    g[G_RAX] = (uint64_t)keep_sigsys(nr, a1, a2, a3, ucontext);
    return;
  }
  if (fixed_clock >= 0 &&
      (nr == NR_clock_gettime || nr == NR_gettimeofday || nr == NR_time)) {
    long *out = (long *)(nr == NR_clock_gettime ? a2 : a1);
    if (out) {
      out[0] = fixed_clock;
      if (nr != NR_time)
        out[1] = 0;
    }
    g[G_RAX] = (uint64_t)(nr == NR_time ? fixed_clock : 0);
    return;
  }
  const struct sysinfo_entry *e = lookup(nr);
  int counted = e != 0;
  /* fcntl counts as dup only for F_DUPFD (0) and F_DUPFD_CLOEXEC (1030). */
  if (nr == NR_fcntl && a2 != 0 && a2 != 1030)
    counted = 0;
  /* Coverage data files: pass through. */
  if ((nr == NR_open || nr == NR_creat) && is_coverage_file((const char *)a1))
    counted = 0;
  if (nr == NR_openat && is_coverage_file((const char *)a2))
    counted = 0;
  if (nr != NR_open && nr != NR_openat && nr != NR_creat && nr != NR_getcwd &&
      nr != NR_stat && nr != NR_lstat && nr != NR_access && fd_ignored(a1))
    counted = 0;
  if (counted) {
    long k = ++counter[e->cls];
    if (fail_at[e->cls] == k) {
      log_failure(e->cls, k, e->name);
      g[G_RAX] = (uint64_t)(long)-class_errno[e->cls];
      return;
    }
  }
  long r;
  if (nr == NR_execve && world_applies(info)) {
    /* No other program runs (the model's execve): ENOENT and the like for a
     * path that names no file, as the kernel says, else EACCES. */
    r = a1 ? symtest_fail_raw(NR_access, a1, 0 /* F_OK */, 0, 0, 0, 0) : -14 /* EFAULT */;
    g[G_RAX] = (uint64_t)(r < 0 ? r : -13 /* EACCES */);
    return;
  }
  if (nr == NR_kill && world_applies(info)) {
    /* No other process (the model's kill): a signal to another process or
     * group, or to every process, fails with ESRCH; one to the program's
     * pid or group (0) goes to the program alone. */
    long self = symtest_fail_raw(NR_getpid, 0, 0, 0, 0, 0, 0);
    g[G_RAX] = (uint64_t)(a1 == 0 || a1 == self ? symtest_fail_raw(nr, self, a2, 0, 0, 0, 0)
                                                : -3 /* ESRCH */);
    return;
  }
  if ((nr == NR_open || nr == NR_openat || nr == NR_creat) && world_applies(info))
    r = world_open(nr, a1, a2, a3, a4, a5, a6);
  else
    r = symtest_fail_raw(nr, a1, a2, a3, a4, a5, a6);
  if (!counted && r >= 0 &&
      (((nr == NR_open || nr == NR_creat) && is_coverage_file((const char *)a1)) ||
       (nr == NR_openat && is_coverage_file((const char *)a2))))
    fd_set_ignored(r, 1);
  if (nr == NR_close && r == 0)
    fd_set_ignored(a1, 0);
  g[G_RAX] = (uint64_t)r;
}

/* ---- setup --------------------------------------------------------------- */

#ifndef SYMTEST_FAIL_LINKED
static const char *get_env(const char *name) {
  if (!environ)
    return 0;
  size_t n = slen(name);
  for (char **e = environ; *e; e++)
    if (starts_with(*e, name) && (*e)[n] == '=')
      return *e + n + 1;
  return 0;
}
#endif

/* "read=3,open=1" */
static void parse_spec(const char *s) {
  while (*s) {
    int cls = -1;
    for (int c = 0; c < C_NUM; c++) {
      size_t n = slen(class_name[c]);
      if (starts_with(s, class_name[c]) && s[n] == '=') {
        cls = c;
        s += n + 1;
        break;
      }
    }
    if (cls < 0)
      die("SYMTEST_FAIL: expected CLASS=K,... with CLASS one of read write close "
          "open lseek stat getcwd dup");
    if (*s < '0' || *s > '9')
      die("SYMTEST_FAIL: expected a number after '='");
    /* Any count a test's 4-byte failure object can hold: the engine may
     * leave an unused one at its largest value (never reached). */
    long k = 0;
    while (*s >= '0' && *s <= '9') {
      k = k * 10 + (*s++ - '0');
      if (k > 4294967295L)
        die("SYMTEST_FAIL: number too large (at most 4294967295)");
    }
    fail_at[cls] = k;
    if (*s == ',')
      s++;
    else if (*s)
      die("SYMTEST_FAIL: expected ',' between entries");
  }
}

#define ADD(stmt) (prog[len++] = (struct sock_filter)stmt)

/* The SIGSYS handler (once). Every other signal waits while it runs: a
 * handler that makes system calls (the suite's SIGALRM handler writes the
 * coverage profile of a test stopped by its timeout) must not run inside this
 * one, where SIGSYS is blocked and its first trapped call would kill the
 * process with SIGSYS. */
static void install_handler(void) {
  static int installed;
  if (installed)
    return;
  struct kernel_sigaction sa = {(void *)on_sigsys, 0x4 /* SA_SIGINFO */ | 0x04000000 /* SA_RESTORER */,
                                symtest_fail_restorer, ~0UL};
  if (symtest_fail_raw(NR_rt_sigaction, 31 /* SIGSYS */, (long)&sa, 0, 8, 0, 0) != 0)
    die("cannot install the SIGSYS handler");
  installed = 1;
}

/* ---- the model's world ---------------------------------------------------- */

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
 * message queue, semaphore or shared memory (ENOSYS), and
 * open answers as world_open says. What the
 * engine saw fail fails natively the same way, rather than running a
 * command, listing the host's interfaces, processes or directories, or
 * reading its devices and /proc.
 *
 * Only the calls the program makes through its C library are concerned (the
 * executable text of libc.so / ld-musl, when /proc/self/maps shows it): a
 * sanitizer runtime starts its symbolizer with its own system calls, and that
 * program, exec'd with this filter, makes its calls from another address. */
static int install_world(void) {
  uint64_t lo = 0, hi = 0;
  int scoped = libc_text(&lo, &hi) == 0;
  install_handler();
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
  static const int trapped[] = {NR_execve, NR_open, NR_openat, NR_creat, NR_rt_sigaction,
                                NR_rt_sigprocmask, NR_kill};
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

/* Parses the spec and installs the filter (when a class has a failure to
 * inject, or the clock is fixed). */
static void install(const char *spec, const char *log) {
  int any = 0;
  if (spec && *spec) {
    parse_spec(spec);
    log_path = log && *log ? log : 0;
    for (int c = 0; c < C_NUM; c++)
      any |= fail_at[c] != 0;
  }
  if (!any && fixed_clock < 0)
    return;

  install_handler();

  uint64_t lo = (uint64_t)(uintptr_t)symtest_fail_raw;
  uint64_t hi = (uint64_t)(uintptr_t)symtest_fail_raw_end;
  if ((lo >> 32) != (hi >> 32))
    die("trampoline straddles a 4 GiB boundary");

  /* The calls to trap: every call of the classes (gcov's files are told
   * apart by the handler, so open/close/fd classes are trapped too) when a
   * failure is to be injected; the clocks when fixed. */
  int trapped[NCALLS + 3];
  unsigned ntrap = 0;
  if (any)
    for (size_t i = 0; i < NCALLS; i++)
      trapped[ntrap++] = calls[i].nr;
  if (fixed_clock >= 0) {
    trapped[ntrap++] = NR_clock_gettime;
    trapped[ntrap++] = NR_gettimeofday;
    trapped[ntrap++] = NR_time;
  }

  struct sock_filter prog[64];
  unsigned len = 0;
  /* Other architectures (x32 ABI, int 0x80): allow. */
  ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
  ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
  ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  /* Calls from the trampoline: allow. */
  ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
               offsetof(struct seccomp_data, instruction_pointer) + 4));
  ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(lo >> 32), 0, 5));
  ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer)));
  ADD(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)lo, 0, 3));
  ADD(BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, (uint32_t)hi, 2, 0));
  ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)); /* padding target */
  ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
  unsigned first = len;
  for (unsigned i = 0; i < ntrap; i++)
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)trapped[i], 0, 0));
  ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  unsigned trap = len;
  ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
  for (unsigned i = first; i < first + ntrap; i++)
    prog[i].jt = (unsigned char)(trap - i - 1);

  struct sock_fprog fprog = {(unsigned short)len, prog};
  if (SYS(NR_prctl, 38 /* PR_SET_NO_NEW_PRIVS */, 1, 0) != 0)
    die("prctl(PR_SET_NO_NEW_PRIVS) failed");
  if (SYS(NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0)
    die("seccomp(SECCOMP_SET_MODE_FILTER) failed");
}

#ifdef SYMTEST_FAIL_LINKED
int symtest_fail_arm(const char *spec, const char *log);
int symtest_fail_arm(const char *spec, const char *log) {
  install(spec, log);
  return 0;
}

int symtest_world_arm(void);
int symtest_world_arm(void) { return install_world(); }
#else
/* SYMTEST_CLOCK=SECONDS: every clock reads SECONDS (the POSIX model's fixed
 * clock), so a program that prints the date or a file's age replays as it ran
 * in the engine.  Calls through the C library's exported functions are
 * answered here (the preloaded definitions below come first); the library's
 * own calls are trapped system calls, once the vDSO (which answers without
 * one) is hidden from a library that looks it up lazily (musl). */
static void fix_clock(const char *v) {
  if (!v || *v < '0' || *v > '9')
    return;
  long secs = 0;
  while (*v >= '0' && *v <= '9' && secs < 100000000000L)
    secs = secs * 10 + (*v++ - '0');
  fixed_clock = secs;
  if (!environ)
    return;
  char **e = environ;
  while (*e)
    e++;
  /* The auxiliary vector follows the environment's terminating NULL. */
  for (unsigned long *a = (unsigned long *)(e + 1); a[0]; a += 2)
    if (a[0] == 33 /* AT_SYSINFO_EHDR */)
      a[0] = 1; /* AT_IGNORE */
}

__attribute__((visibility("default"))) int clock_gettime(int clk, long *ts);
__attribute__((visibility("default"))) int clock_gettime(int clk, long *ts) {
  if (fixed_clock >= 0) {
    ts[0] = fixed_clock;
    ts[1] = 0;
    return 0;
  }
  long r = SYS(NR_clock_gettime, clk, ts, 0);
  return r < 0 ? -1 : 0;
}

__attribute__((visibility("default"))) int gettimeofday(long *tv, void *tz);
__attribute__((visibility("default"))) int gettimeofday(long *tv, void *tz) {
  if (fixed_clock >= 0) {
    if (tv) {
      tv[0] = fixed_clock;
      tv[1] = 0;
    }
    return 0;
  }
  long r = SYS(NR_gettimeofday, tv, tz, 0);
  return r < 0 ? -1 : 0;
}

__attribute__((visibility("default"))) long time(long *t);
__attribute__((visibility("default"))) long time(long *t) {
  long now = fixed_clock;
  if (now < 0) {
    long ts[2];
    SYS(NR_clock_gettime, 0, ts, 0);
    now = ts[0];
  }
  if (t)
    *t = now;
  return now;
}

/* SYMTEST_ARG_GUARD=1: every argument after argv[0] moves to the end of a
 * fresh mapping, its NUL the last byte before an unmapped page, so a program
 * that reads or writes past an argument's terminator crashes (SIGSEGV), as
 * the engine reports it (engine/executor/src/terminated.rs): natively the
 * bytes after the NUL are another string's, which no test can fix.  main
 * receives the same argv array, so it sees the moved strings. */
static void guard_args(void) {
  /* Constructors get no arguments in musl processes: find argv where the
   * kernel put it, right below the environment's pointer array (argc, argv[0],
   * ..., argv[argc] = NULL, envp[0], ...). */
  if (!environ)
    return;
  long *env = (long *)environ;
  if (env[-1] != 0)
    return;
  int argc = -1;
  for (long n = 0; n < 65536; n++)
    if (env[-2 - n] == n) {
      argc = (int)n;
      break;
    }
  if (argc <= 1)
    return;
  char **argv = (char **)(env - 1 - argc);
  for (int i = 1; i < argc && argv[i]; i++) {
    size_t len = slen(argv[i]) + 1;
    size_t span = (len + 4095) / 4096 * 4096;
    long m = symtest_fail_raw(NR_mmap, 0, (long)(span + 4096), 3 /* PROT_READ|PROT_WRITE */,
                              0x22 /* MAP_PRIVATE|MAP_ANONYMOUS */, -1, 0);
    if (m < 0 && m > -4096)
      return;
    char *page_end = (char *)m + span;
    if (SYS(NR_mprotect, page_end, 4096, 0 /* PROT_NONE */) != 0)
      return;
    char *dst = page_end - len;
    for (size_t k = 0; k < len; k++)
      dst[k] = argv[i][k];
    argv[i] = dst;
  }
}

__attribute__((constructor)) static void symtest_fail_init(void) {
  const char *guard = get_env("SYMTEST_ARG_GUARD");
  if (guard && guard[0] == '1' && guard[1] == 0)
    guard_args();
  fix_clock(get_env("SYMTEST_CLOCK"));
  install(get_env("SYMTEST_FAIL"), get_env("SYMTEST_FAIL_LOG"));
  install_world();
}
#endif
#endif
