/*
 * symtest_child.c - how the child process of a test of an emitted regression
 * suite starts, before the code under test runs (symtest_runner.c forks it,
 * or re-executes the suite for a test that injects failures):
 *
 *   the program's inputs  a whole program's environment rebuilt from the
 *                         test's objects, as the engine built it: its
 *                         arguments, its files A, B, ... in the test's
 *                         directory, its stdin (symtest_program_argv,
 *                         symtest_feed_stdin), and the failures it injects
 *                         as the failure shim's spec (symtest_case_fail_spec);
 *   what every test sees  the engine's fixed environment and the program's
 *                         name (symtest_fixed_environment,
 *                         symtest_set_program_name);
 *   the timeout           a timer on the process's processor time
 *                         (symtest_arm_timeout), disarmed when
 *                         AddressSanitizer starts a report;
 *   coverage              in a coverage build (SYMTEST_COVERAGE), the test's
 *                         own profile, written also when a crash or _exit
 *                         ends it (symtest_coverage_setup).
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "symtest_tests.h"
#include "symtest_child.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

#define MISMATCH_EXIT SYMTEST_MISMATCH_EXIT

/* The test's timeout counts the processor time the test's process used, not
 * the wall clock's: a loaded machine (a parallel build, other suites) slows a
 * run without changing what it computes, and a test that needs 5 s of work
 * ends as it did when the suite was recorded, however busy the machine.  On
 * Linux a POSIX timer on the process's CPU clock raises the timer's signal,
 * SIGALRM, as an alarm would (raw system calls: no -lrt); elsewhere it is the
 * wall clock's timer.  A test that waits without running (a blocking read)
 * is ended by the runner past a multiple of its timeout in wall-clock time
 * (symtest_capture_wait). */
#if defined(__linux__) && defined(SYS_timer_create) && defined(SYS_timer_settime)
#define CPU_TIMER 1
static int cpu_timer = -1;
#else
#define CPU_TIMER 0
#endif

/* A crash's report is not cut short by the test's timeout: AddressSanitizer
 * calls this as it starts one, and the timer is disarmed (symbolizing the
 * report's stack trace can take longer, on a loaded machine, than the half
 * second a test the engine stopped early gets), so the run ends as the
 * crash it is, on every run. */
void __asan_on_error(void);
void __asan_on_error(void) {
  struct itimerval t;
  memset(&t, 0, sizeof t);
  setitimer(ITIMER_REAL, &t, NULL);
#if CPU_TIMER
  if (cpu_timer >= 0) {
    struct itimerspec off;
    memset(&off, 0, sizeof off);
    syscall(SYS_timer_settime, cpu_timer, 0, &off, NULL);
  }
#endif
}

#ifdef SYMTEST_COVERAGE
/* Coverage builds (make SYMTEST_COVERAGE=1: clang's source-based coverage):
 * each test's child writes its profile to COVERAGE_DIR/<test>.profraw
 * (default: symtest-coverage/ in the directory the suite started in), also
 * when a crash ends it ... */
int __llvm_profile_write_file(void);
void __llvm_profile_set_filename(const char *name);
/* The handlers the coverage handlers replaced (AddressSanitizer's for
 * SIGSEGV, SIGBUS, SIGFPE: its report, then SIGABRT), per signal. */
static struct sigaction previous_action[32];
/* After the profile is written the signal goes where it went without the
 * coverage handler, so a crash ends as in the suite's build without coverage
 * (which records expected/ and which `make test` runs must agree on): a fault
 * the processor raised is raised again by the faulting instruction, when this
 * handler returns, for the previous handler to see with its own address and
 * context; a signal that was sent is sent again. */
static void dump_and_die(int sig, siginfo_t *info, void *context) {
  int fault = (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL) && info && info->si_code > 0;
  (void)context;
  __llvm_profile_write_file();
  sigaction(sig, &previous_action[sig], NULL);
  if (!fault)
    raise(sig);
}
static void on_crash_dump(int sig) {
  struct sigaction a;
  memset(&a, 0, sizeof a);
  a.sa_sigaction = dump_and_die;
  /* On the alternate stack AddressSanitizer set up, if any: a stack overflow
   * reaches it too. */
  a.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&a.sa_mask);
  sigaction(sig, &a, &previous_action[sig]);
}
/* ... and when _exit/_Exit end it: they skip the exit handlers where the
 * profile is written (programs that close stdout with gnulib's close_stdout
 * leave through _exit after a write error).  Writing twice is harmless: each
 * write holds every count so far. */
long syscall(long number, ...);
void _exit(int status) {
  __llvm_profile_write_file();
  for (;;)
    syscall(231 /* exit_group */, status);
}
void _Exit(int status) { _exit(status); }
#endif

/* Whole programs: the environment the engine built (libc-models/posix/init.c,
 * after KLEE's POSIX runtime) rebuilt from the objects: argNN arguments, n_args
 * counts, files A, B, ... (objects A-data, ...) in a fresh directory, stdin. */
static const struct symtest_object *find_object(const char *name, unsigned nth) {
  unsigned i;
  for (i = 0; i < symtest_current->num_objects; i++)
    if (strcmp(symtest_current->objects[i].name, name) == 0 && nth-- == 0)
      return &symtest_current->objects[i];
  symtest_mismatch("no object '%s' in the test vector (%lu)", name, 0);
  return NULL;
}

static char *object_string(const struct symtest_object *o) {
  char *s = (char *)calloc(o->size + 1, 1);
  if (!s)
    abort();
  memcpy(s, o->bytes, o->size);
  return s;
}

/* A program argument: the object's string up to its first NUL, placed right
 * before an unmapped page, so that an access past the NUL crashes, as the
 * engine reports it (natively the bytes after an argument are not its own). */
static char *argument_string(const struct symtest_object *o) {
  long page = sysconf(_SC_PAGESIZE);
  size_t len = 0, span;
  char *m;
  while (len < o->size && o->bytes[len])
    len++;
  len++;
  if (page <= 0)
    return object_string(o);
  span = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
  m = (char *)mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return object_string(o);
  if (mprotect(m + span, (size_t)page, PROT_NONE) != 0) {
    munmap(m, span + (size_t)page);
    return object_string(o);
  }
  memcpy(m + span - len, o->bytes, len - 1);
  m[span - 1] = 0;
  return m + span - len;
}

/* The permission bits the engine chose for file `file` (st_mode of its
 * `X-data-stat` object, a struct stat of x86_64 Linux: offset 24), or -1
 * when the test has no such object. */
static long recorded_mode(const char *file) {
  char name[24];
  unsigned i;
  snprintf(name, sizeof name, "%s-data-stat", file);
  for (i = 0; i < symtest_current->num_objects; i++) {
    const struct symtest_object *o = &symtest_current->objects[i];
    if (strcmp(o->name, name) == 0 && o->size >= 28) {
      const unsigned char *b = o->bytes + 24;
      unsigned long m = (unsigned long)b[0] | (unsigned long)b[1] << 8 | (unsigned long)b[2] << 16 | (unsigned long)b[3] << 24;
      return (long)(m & 07777);
    }
  }
  return -1;
}

static void write_file(const char *path, const struct symtest_object *o, long mode) {
  struct timespec times[2];
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(o->bytes, 1, o->size, f) != o->size || fclose(f) != 0) {
    perror(path);
    exit(MISMATCH_EXIT);
  }
  /* Accessed and modified at the model's clock, as under the engine. */
  times[0].tv_sec = times[1].tv_sec = SYMTEST_EPOCH;
  times[0].tv_nsec = times[1].tv_nsec = 0;
  if (utimensat(AT_FDCWD, path, times, 0) != 0) {
    perror(path);
    exit(MISMATCH_EXIT);
  }
  /* Its permission bits as the engine chose them (`test -x A`, `ls -l`
   * decide by them), not the umask's. */
  if (mode >= 0 && chmod(path, (mode_t)mode) != 0) {
    perror(path);
    exit(MISMATCH_EXIT);
  }
}

static int is_opt(const char *a, const char *name) {
  if (a[0] != '-')
    return 0;
  a += a[1] == '-' ? 2 : 1;
  return strcmp(a, name) == 0;
}

int symtest_program_argv(char **argv, int max, const char *files_dir) {
  int argc = 1, k, n_args_seen = 0, sym_args = 0;
  char name[16];
  const char *const *pa = SYMTEST_ARGS_OF(symtest_current);
  argv[0] = (char *)symtest_program_name;
  /* A whole program runs in its test's own directory, files or not: what it
   * writes by name (gawk's awkvars.out) stays out of the suite's directory
   * and is the test's behaviour (files.txt). */
  if (files_dir && chdir(files_dir) != 0) {
    perror("symtest: files directory");
    exit(MISMATCH_EXIT);
  }
  for (k = 0; pa[k] && argc < max - 1; k++) {
    const char *a = pa[k];
    if (is_opt(a, "sym-arg") && pa[k + 1]) {
      k++;
      snprintf(name, sizeof name, "arg%02d", sym_args++);
      argv[argc++] = argument_string(find_object(name, 0));
    } else if (is_opt(a, "sym-args") && pa[k + 1] && pa[k + 2] && pa[k + 3]) {
      int hi = atoi(pa[k + 2]), count, i;
      const struct symtest_object *n = find_object("n_args", (unsigned)n_args_seen++);
      k += 3;
      memcpy(&count, n->bytes, sizeof count);
      for (i = 0; i < hi; i++) {
        snprintf(name, sizeof name, "arg%02d", sym_args++);
        if (i < count && argc < max - 1)
          argv[argc++] = argument_string(find_object(name, 0));
      }
    } else if (is_opt(a, "sym-files") && pa[k + 1] && pa[k + 2]) {
      int files = atoi(pa[k + 1]), i;
      k += 2;
      if (!files_dir || chdir(files_dir) != 0) {
        perror("symtest: files directory");
        exit(MISMATCH_EXIT);
      }
      for (i = 0; i < files && i < 26; i++) {
        char file[2] = {(char)('A' + i), 0};
        snprintf(name, sizeof name, "%s-data", file);
        write_file(file, find_object(name, 0), recorded_mode(file));
      }
    } else if ((is_opt(a, "sym-stdin") || is_opt(a, "max-fail")) && pa[k + 1]) {
      k++;
    } else if (is_opt(a, "sym-stdout")) {
    } else {
      argv[argc++] = (char *)a;
    }
  }
  argv[argc] = NULL;
  return argc;
}

/* Standard input is a regular file holding the test's bytes (empty without a
 * symbolic stdin), as in the engine's POSIX model: programs that fstat or lseek
 * it take the same paths. The file is unlinked; only the descriptor remains. */
void symtest_feed_stdin(void) {
  unsigned i;
  FILE *f = tmpfile();
  int fd;
  if (!f) {
    perror("symtest: stdin file");
    exit(MISMATCH_EXIT);
  }
  fd = fileno(f);
  for (i = 0; i < symtest_current->num_objects; i++) {
    const struct symtest_object *o = &symtest_current->objects[i];
    if (strcmp(o->name, "stdin") == 0) {
      if (o->size && write(fd, o->bytes, o->size) != (ssize_t)o->size) {
        perror("symtest: stdin file");
        exit(MISMATCH_EXIT);
      }
      break;
    }
  }
  if (lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, 0) < 0) {
    perror("symtest: stdin file");
    exit(MISMATCH_EXIT);
  }
  fclose(f);
}

/* The code under test sees the environment it has under the engine, a fixed
 * one (PROGRAM_ENVIRONMENT in symtest's engine/executor/src/environment.rs):
 * environ, and main's envp. Its strings are writable, as a process's are (and
 * the engine's): a program may edit a variable in place (`*strchr(e, '=') = 0`
 * to split it, then put the '=' back), which would fault on string literals. */
extern char **environ;
void symtest_fixed_environment(void) {
  static char strings[][64] = {"HOME=/symtest", "PATH=/usr/local/bin:/usr/bin:/bin", "PWD=/symtest"};
  static char *fixed[sizeof strings / sizeof strings[0] + 1];
  size_t i;
  for (i = 0; i < sizeof strings / sizeof strings[0]; i++)
    fixed[i] = strings[i];
  fixed[i] = NULL;
  environ = fixed;
}

/* The failures a test injects (its *_fail objects, ENV_CONTRACT order) as the
 * shim's spec "read=1,open=2"; returns 0 when it injects none. */
int symtest_case_fail_spec(const struct symtest_case *c, char *spec, size_t size) {
  static const char *const classes[] = {"read", "write", "close", "open", "lseek", "stat", "getcwd", "dup"};
  unsigned i, k;
  size_t used = 0;
  spec[0] = 0;
  for (k = 0; k < sizeof classes / sizeof classes[0]; k++) {
    char name[32];
    snprintf(name, sizeof name, "%s_fail", classes[k]);
    for (i = 0; i < c->num_objects; i++) {
      const unsigned char *b = c->objects[i].bytes;
      unsigned long v;
      if (strcmp(c->objects[i].name, name) != 0 || c->objects[i].size != 4)
        continue;
      v = (unsigned long)b[0] | (unsigned long)b[1] << 8 | (unsigned long)b[2] << 16 | (unsigned long)b[3] << 24;
      if (v != 0 && used < size)
        used += (size_t)snprintf(spec + used, size - used, "%s%s=%lu", used ? "," : "", classes[k], v);
    }
  }
  return used != 0;
}

void symtest_coverage_setup(const struct symtest_case *c, const char *coverage_dir) {
#ifdef SYMTEST_COVERAGE
  /* Per-test coverage: this child's profile is COVERAGE_DIR/<test>.profraw. */
  static char file[4096];
  snprintf(file, sizeof file, "%s/%s.profraw", coverage_dir, c->name);
  __llvm_profile_set_filename(file);
  on_crash_dump(SIGSEGV);
  on_crash_dump(SIGABRT);
  on_crash_dump(SIGFPE);
  on_crash_dump(SIGILL);
  on_crash_dump(SIGBUS);
  on_crash_dump(SIGALRM);
  on_crash_dump(SIGTERM); /* the runner's own end of a test past its time */
#else
  (void)c;
  (void)coverage_dir;
#endif
}

/* The name the program runs under, as its messages print it: libc's own
 * notion (error(), err(), getopt's messages) is set from the runner's argv[0]
 * at start-up, so it is set again to the program's. */
#if defined(__linux__)
extern char *program_invocation_name, *program_invocation_short_name;
void symtest_set_program_name(void) {
  program_invocation_name = (char *)symtest_program_name;
  program_invocation_short_name = (char *)symtest_program_name;
}
#else
void symtest_set_program_name(void) {}
#endif

/* SIGALRM after `ms` milliseconds of the process's processor time (see
 * CPU_TIMER; the wall clock's where there is no such timer): the test's
 * timeout. */
void symtest_arm_timeout(unsigned ms) {
  struct itimerval t;
#if CPU_TIMER
  struct sigevent ev;
  struct itimerspec at;
  int id = -1;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGALRM;
  memset(&at, 0, sizeof at);
  at.it_value.tv_sec = ms / 1000;
  at.it_value.tv_nsec = (long)(ms % 1000) * 1000000;
  if (syscall(SYS_timer_create, CLOCK_PROCESS_CPUTIME_ID, &ev, &id) == 0 &&
      syscall(SYS_timer_settime, id, 0, &at, NULL) == 0) {
    cpu_timer = id;
    return;
  }
#endif
  memset(&t, 0, sizeof t);
  t.it_value.tv_sec = ms / 1000;
  t.it_value.tv_usec = (long)(ms % 1000) * 1000;
  setitimer(ITIMER_REAL, &t, NULL);
}
