/*
 * symtest_fail.h - internal to the failure shim: what its two files share
 * (symtest_fail.c: the failures injected, the fixed clock, the SIGSYS
 * handler; symtest_world.c: the POSIX model's world).  The kernel ABI bits
 * of seccomp, the x86_64 system call numbers, the raw system call
 * trampoline, the kernel's signal frame as the SIGSYS handler reads it, and
 * tiny string helpers: the shim is freestanding (no libc calls).  Copied
 * with the shim wherever it is built.
 */
#ifndef SYMTEST_FAIL_H
#define SYMTEST_FAIL_H

/* The program's entry points of a shim linked into it (SYMTEST_FAIL_LINKED;
 * see symtest_fail.c). */
int symtest_fail_arm(const char *spec, const char *log_path);
int symtest_world_arm(void);

/* Linked into a program that is not x86_64 Linux: no shim (the entry points
 * return -1). */
#if defined(SYMTEST_FAIL_LINKED) && !(defined(__x86_64__) && defined(__linux__))
#define SYMTEST_SHIM 0
#else
#define SYMTEST_SHIM 1
#include <stddef.h>
#include <stdint.h>

/* Shared by the shim's files, not seen by the program (nor exported by the
 * preloaded object). */
#define SYMTEST_HIDDEN __attribute__((visibility("hidden")))

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

#define ADD(stmt) (prog[len++] = (struct sock_filter)stmt)

/* ---- raw system calls through the trampoline (symtest_fail.c) ---------- */

SYMTEST_HIDDEN long symtest_fail_raw(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
SYMTEST_HIDDEN extern const char symtest_fail_raw_end[];
SYMTEST_HIDDEN void symtest_fail_restorer(void);

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
  /* the model's world (symtest_world.c) */
  NR_clone = 56, NR_fork = 57, NR_vfork = 58, NR_execve = 59, NR_socket = 41,
  NR_socketpair = 53, NR_getdents = 78, NR_getdents64 = 217, NR_execveat = 322,
  NR_clone3 = 435, NR_openat2 = 437, NR_fstatfs = 138, NR_memfd_create = 319,
  NR_sendfile = 40, NR_splice = 275, NR_tee = 276, NR_vmsplice = 278,
  NR_copy_file_range = 326, NR_kill = 62, NR_getpid = 39, NR_getrlimit = 97, NR_setrlimit = 160, NR_prlimit64 = 302, NR_getpriority = 140,
  NR_setpriority = 141, NR_settimeofday = 164,
  NR_clock_settime = 227, NR_adjtimex = 159, NR_clock_adjtime = 305,
  NR_mkdir = 83, NR_rmdir = 84, NR_mkdirat = 258, NR_shmget = 29, NR_shmat = 30,
  NR_shmctl = 31, NR_semget = 64, NR_semop = 65, NR_semctl = 66, NR_shmdt = 67,
  NR_msgget = 68, NR_msgsnd = 69, NR_msgrcv = 70, NR_msgctl = 71, NR_semtimedop = 220
};

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

/* ---- tiny string helpers (no libc) -------------------------------------- */

static inline size_t slen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

static inline int starts_with(const char *s, const char *p) {
  while (*p)
    if (*s++ != *p++)
      return 0;
  return 1;
}

static inline int ends_with(const char *s, const char *suffix) {
  size_t n = slen(s), m = slen(suffix), i;
  if (n < m)
    return 0;
  for (i = 0; i < m; i++)
    if (s[n - m + i] != suffix[i])
      return 0;
  return 1;
}

static inline int is_coverage_file(const char *path) {
  return path && (ends_with(path, ".gcda") || ends_with(path, ".profraw"));
}

static inline void put(const char *s) { SYS(NR_write, 2, s, slen(s)); }

static inline void die(const char *msg) {
  put("symtest-fail: ");
  put(msg);
  put("\n");
  SYS(NR_exit_group, 125, 0, 0); /* the replay-mismatch code */
}

/* ---- symtest_fail.c ------------------------------------------------------ */

/* Installs the SIGSYS handler (once). */
SYMTEST_HIDDEN void symtest_fail_install_handler(void);

/* ---- symtest_world.c: the model's world ----------------------------------- */

/* Installs the world's filter (and the SIGSYS handler): 0, or -1 when the
 * kernel refuses the filter. */
SYMTEST_HIDDEN int symtest_world_install(void);
/* Whether the world answers the trapped call `info` (a SIGSYS siginfo) was
 * made from: armed, and made by the program's C library. */
SYMTEST_HIDDEN int symtest_world_applies(void *info);
/* open, openat and creat as the model answers them. */
SYMTEST_HIDDEN long symtest_world_open(int nr, long a1, long a2, long a3, long a4, long a5, long a6);
/* The program's rt_sigaction of SIGSYS and rt_sigprocmask, answered so that
 * SIGSYS stays the shim's. */
SYMTEST_HIDDEN long symtest_world_keep_sigsys(int nr, long a1, long a2, long a3, void *ucontext);
/* execve, kill, the resource limits and the scheduling priority as the
 * model answers them, when
 * symtest_world_applies: 1 with the call's result in *r, else 0 (the call
 * is not the world's). */
SYMTEST_HIDDEN int symtest_world_call(int nr, long a1, long a2, long a3, long a4, void *info, long *r);

#endif
#endif
