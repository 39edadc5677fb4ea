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
 * The POSIX model's world (symtest_world.c; always, from the constructor): a
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
 * object works in musl and glibc processes.  x86_64 Linux only.  It is built
 * from this file and symtest_world.c, which share symtest_fail.h.
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
#include "symtest_fail.h"

#if !SYMTEST_SHIM
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

extern char **environ;

/* ---- raw system calls through the trampoline ---------------------------- */

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

static const struct sysinfo_entry *lookup(int nr) {
  for (size_t i = 0; i < NCALLS; i++)
    if (calls[i].nr == nr)
      return &calls[i];
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
    g[G_RAX] = (uint64_t)symtest_world_keep_sigsys(nr, a1, a2, a3, ucontext);
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
  if (symtest_world_call(nr, a1, a2, a3, a4, info, &r)) {
    g[G_RAX] = (uint64_t)r;
    return;
  }
  if ((nr == NR_open || nr == NR_openat || nr == NR_creat) && symtest_world_applies(info))
    r = symtest_world_open(nr, a1, a2, a3, a4, a5, a6);
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

/* The SIGSYS handler (once). Every other signal waits while it runs: a
 * handler that makes system calls (the suite's SIGALRM handler writes the
 * coverage profile of a test stopped by its timeout) must not run inside this
 * one, where SIGSYS is blocked and its first trapped call would kill the
 * process with SIGSYS. */
void symtest_fail_install_handler(void) {
  static int installed;
  if (installed)
    return;
  struct kernel_sigaction sa = {(void *)on_sigsys, 0x4 /* SA_SIGINFO */ | 0x04000000 /* SA_RESTORER */,
                                symtest_fail_restorer, ~0UL};
  if (symtest_fail_raw(NR_rt_sigaction, 31 /* SIGSYS */, (long)&sa, 0, 8, 0, 0) != 0)
    die("cannot install the SIGSYS handler");
  installed = 1;
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

  symtest_fail_install_handler();

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
int symtest_world_arm(void) { return symtest_world_install(); }
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
  symtest_world_install();
}
#endif
#endif
