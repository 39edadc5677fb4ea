/*
 * symtest_runner.c - the runner of a regression suite emitted by `cargo symtest`.
 *
 * Self-contained: needs only a C99 compiler and POSIX (fork, waitpid, alarm).
 * The code under test is compiled with -Dmain=symtest_target_main; this file
 * provides main(), which runs each test case of symtest_tests.c in a child
 * process and checks the outcome the engine recorded:
 *
 *   expect exit N  the run must end normally with exit code N;
 *   expect any     the engine stopped the path early: the run must not crash
 *                  (the timeout, at most 0.5 s for it, may stop it);
 *   expect bug     the test documents a bug: it FAILS while the bug is there
 *                  (a crash, a sanitizer report, a failed assertion, a
 *                  symtest_report_error) and passes once the run ends normally;
 *   expect no end  the engine ran the path concretely and saw no end: the
 *                  timeout (at most 0.5 s) may stop the run. The code's sleeps
 *                  return at once (symtest_env.c), so half a second runs it
 *                  far beyond the engine's concrete run, where the engine
 *                  claims nothing: input past the test's last object is zeros
 *                  (symtest_api.c), and any end passes, a crash included.
 *   expect stopped the engine stopped the path at one of its limits (a call of
 *                  a function defined nowhere, an unsupported instruction):
 *                  it claims nothing of the run's end, so any end passes
 *                  (a crash of code the engine never ran included; the
 *                  timeout, at most 0.5 s, may stop it);
 *   expect recorded a run recorded from the project's own tests (a seed) that
 *                  the engine did not follow to its end: any end passes, with
 *                  the whole timeout (the run ended under those tests);
 *
 * and then what the test did when the suite was made (expected/<test>/, see
 * symtest_oracle.c): its exit status, stdout, stderr, the files it left and
 * the values a harness recorded with symtest_expect_output.  A difference
 * fails the test, naming the stream, the first differing line with expected
 * and actual excerpts, and the input as a shell command.  After an intended
 * change, `make update-expected` (./symtest_suite --record DIR) records the
 * new behaviour: each test runs three times (the last in another directory,
 * time zone, locale and memory layout, a second later) and a stream the runs
 * disagree on is not compared, as expected/<test>/not-compared says.
 *
 * The symtest.h / klee.h functions are replayed from the embedded test
 * vectors by symtest_api.c: each call that creates a symbolic value takes the
 * next object of the test this runner is running.  What the child sets up
 * before the code under test runs (a whole program's arguments, files and
 * stdin, the fixed environment, the timeout, the coverage profile) is
 * symtest_child.c's.
 *
 * Injected system-call failures (whole programs run with --max-fail N: the
 * test's read_fail, open_fail, ... objects): when this suite is built against
 * musl (the libc the engine runs, e.g. with musl-gcc) on x86_64 Linux, such a
 * test runs in a fresh process (the suite re-executes itself) with the
 * failure shim symtest_fail.c armed right before the program's main, so the
 * same system call fails as on the engine's path, and the recorded exit code
 * is checked; the output names each failure injected ("injected: read #1").
 * Against another libc the system calls differ, so such tests are only
 * checked for "no crash" (said in the output).  Define
 * SYMTEST_NO_FAIL_INJECTION to force that.
 *
 * Usage: ./symtest_suite [--list] [--no-bugs] [--quiet] [--show-output] [--exit-only]
 *                        [--timeout S] [--expected DIR] [--record DIR [--runs N]]
 *                        [--coverage-dir DIR] [NAME...]
 * (--exit-only: compare the exit status only, not the recorded streams)
 * (--timeout S: each test's limit, default 10, in processor time on Linux, so
 * a loaded machine does not change a test's end; a test that waits without
 * running is ended past 5 times S in wall-clock time.  Each test runs in a
 * fresh empty directory of its own, removed after it.)
 * (--coverage-dir: where a coverage build, make SYMTEST_COVERAGE=1, writes
 * each test's profile DIR/NAME.profraw; default symtest-coverage)
 * (the tested code's stdout and stderr are captured to files, as the engine's
 * model has them, and shown with --show-output).
 * Exit status: 0 when every selected test passed, 1 otherwise.  The last line
 * is "N passed, N failed".
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "symtest.h"
#include "klee/klee.h"
#include "symtest_tests.h"
#include "symtest_oracle.h"
#include "symtest_child.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* musl (no glibc/bionic/uClibc macro) on x86_64 Linux: failures are injected. */
#if defined(__linux__) && defined(__x86_64__) && !defined(__GLIBC__) && !defined(__BIONIC__) && \
    !defined(__UCLIBC__) && !defined(SYMTEST_NO_FAIL_INJECTION)
#define SYMTEST_INJECT 1
int symtest_fail_arm(const char *spec, const char *log_path);
#else
#define SYMTEST_INJECT 0
#endif

/* symtest_fail.c: the POSIX model's world for a whole program, armed right
 * before its main (x86_64 Linux; elsewhere it returns -1 and the program runs
 * in the host's): no other process or program (fork and clone fail with
 * ENOSYS, execve with ENOENT or EACCES), no network (socket: EAFNOSUPPORT), no
 * directory listing (getdents: ENOSYS), no host device opened (EACCES) and
 * /proc's files empty, as the engine had it, so that a shell's command, `ip`
 * or `top` end as they did there instead of in the host's world. */
int symtest_world_arm(void);

#define MISMATCH_EXIT SYMTEST_MISMATCH_EXIT
#define USER_ERROR_EXIT SYMTEST_USER_ERROR_EXIT

int symtest_target_main(int argc, char **argv, char **envp);
/* symtest_repro.c */
void symtest_print_repro(const struct symtest_case *c, const char *injected, FILE *f);

const struct symtest_case *symtest_current;
/* The test's working directory (fresh, per test; run_once): a whole program's
 * files A, B, ... (--sym-files) are written there. */
static char *files_dir;
/* The recording's last run, in another memory layout (shift_heap). */
static int other_layout;
#define STACK_SHIFT 4160u
unsigned symtest_next_object;

/* Sanitizers report by aborting, so every bug is a signal; leaks are not bugs here.
 * An allocation above the engine's fixed limit (1024 MiB, --max-alloc-size) or one
 * the allocator cannot grant returns NULL, as in the engine (ASan would abort). */
/* memcmp reads up to the first difference, as the engine's (strict_memcmp=0). */
/* New heap blocks start zero-filled, as the engine's objects do (ASan's own
 * fill is 0xbe, and a reused block keeps its old bytes). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "abort_on_error=1:detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=1024:strict_memcmp=0:"
         "malloc_fill_byte=0:max_malloc_fill_size=1048576";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "abort_on_error=1:halt_on_error=1:print_stacktrace=1"; }

/* The engine's wall clock and processors for the code under test:
 * symtest_env.c.  How a test's child starts (the program's inputs, the fixed
 * environment, the timeout's timer, the coverage profile): symtest_child.c. */

static int show_output;
static const char *coverage_dir;
extern char **environ;
#ifdef SYMTEST_COVERAGE
void __llvm_profile_set_filename(const char *name);
#endif

/* The timeout of a test the engine saw run on without end or stopped early. */
#define EARLY_TIMEOUT_MS 500u

#if SYMTEST_INJECT
/* A test that injects failures, in the fresh process the suite re-executed
 * (args: case index, timeout in ms, files directory, log file, coverage
 * directory, the record file's descriptor; stdout and stderr already go to
 * the test's capture): libc's state (stdio buffering decided on the first
 * write, ...) is the one of a program that just started, as on the engine's
 * path.  Counting starts at symtest_fail_arm, right before the program's main. */
static void run_injected(char **args) {
  static char spec[256];
  struct symtest_capture cap;
  char *argv[256];
  int argc;
  symtest_current = &symtest_cases[atoi(args[0])];
  files_dir = args[2][0] ? args[2] : NULL;
  coverage_dir = args[4][0] ? args[4] : NULL;
  cap.out[0] = cap.err[0] = -1;
  cap.out[1] = 1;
  cap.err[1] = 2;
  symtest_capture_child(&cap, atoi(args[5]));
  symtest_coverage_setup(symtest_current, coverage_dir);
  argc = symtest_program_argv(argv, 256, files_dir);
  symtest_feed_stdin();
  symtest_case_fail_spec(symtest_current, spec, sizeof spec);
  symtest_arm_timeout((unsigned)atoi(args[1]));
  symtest_fixed_environment();
  symtest_set_program_name();
  symtest_world_arm();
  if (symtest_fail_arm(spec, args[3]) != 0) {
    fputs("symtest: cannot arm the failure shim\n", stderr);
    exit(MISMATCH_EXIT);
  }
  errno = 0; /* as at a program's start: what the runner did before is not the program's */
  exit(symtest_target_main(argc, argv, environ));
}
#endif

/* The failures the shim logged ("fail read 1 read" lines) as "read #1 (read), ...". */
static void read_injected(const char *log, char *out, size_t size) {
  char line[256];
  size_t used = 0;
  FILE *f = fopen(log, "r");
  out[0] = 0;
  if (!f)
    return;
  while (fgets(line, sizeof line, f) && used < size) {
    char cls[32], call[32];
    unsigned long k;
    if (sscanf(line, "fail %31s %lu %31s", cls, &k, call) == 3)
      used += (size_t)snprintf(out + used, size - used, "%s%s #%lu (%s)", used ? ", " : "", cls, k, call);
  }
  fclose(f);
}

static void run_child(const struct symtest_case *c, unsigned timeout_ms, const char *fail_log,
                      const struct symtest_capture *cap) {
  /* The recording's last run: the code under test's stack lies lower. */
  volatile char stack_shift[other_layout ? STACK_SHIFT : 1];
  char *argv[256];
  int argc = 1;
  stack_shift[0] = 0;
#if SYMTEST_INJECT
  char spec[256];
  if (symtest_target_is_program && symtest_case_fail_spec(c, spec, sizeof spec)) {
    char idx[32], ms[32], rec[32];
    snprintf(idx, sizeof idx, "%u", (unsigned)(c - symtest_cases));
    snprintf(ms, sizeof ms, "%u", timeout_ms);
    snprintf(rec, sizeof rec, "%d", cap->rec);
    fflush(stdout);
    fflush(stderr);
    if (dup2(cap->out[1], 1) < 0 || dup2(cap->err[1], 2) < 0)
      exit(MISMATCH_EXIT);
    execl("/proc/self/exe", "symtest_suite", "--symtest-run-injected", idx, ms,
          files_dir ? files_dir : "", fail_log, coverage_dir ? coverage_dir : "", rec, (char *)NULL);
    perror("symtest: re-executing the suite");
    exit(MISMATCH_EXIT);
  }
#else
  (void)fail_log;
#endif
  symtest_capture_child(cap, -1);
  /* A library's test in its own directory (a whole program's enters it in
   * symtest_program_argv). */
  if (!symtest_target_is_program && files_dir && chdir(files_dir) != 0) {
    perror("symtest: test directory");
    exit(MISMATCH_EXIT);
  }
  symtest_current = c;
  symtest_next_object = 0;
  argv[0] = (char *)symtest_program_name;
  argv[1] = NULL;
  symtest_coverage_setup(c, coverage_dir);
  if (symtest_target_is_program) {
    argc = symtest_program_argv(argv, 256, files_dir);
    symtest_feed_stdin();
  }
  symtest_arm_timeout(timeout_ms);
  symtest_fixed_environment();
  symtest_set_program_name();
  /* A library's code runs on the engine's C library model as a program's
   * does (the same system calls answered the same way). */
  symtest_world_arm();
  errno = 0; /* as at a program's start: what the runner did before is not the program's */
  exit(symtest_target_main(argc, argv, environ));
}

static const char *signal_name(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV";
  case SIGABRT: return "SIGABRT (abort, failed assertion or sanitizer report)";
  case SIGFPE: return "SIGFPE";
  case SIGILL: return "SIGILL";
  case SIGBUS: return "SIGBUS";
  case SIGALRM: return "SIGALRM (timeout)";
  case SIGSYS: return "SIGSYS";
  case SIGKILL: return "SIGKILL";
  case SIGTERM: return "SIGTERM";
  case SIGPIPE: return "SIGPIPE";
  default: {
    static char other[32];
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
  }
  }
}

/* ---- the recording's last run: another memory layout ----------------------
 * The addresses the code under test is given depend on what the runner did
 * before the test: `make test`, one test run alone, a recording (which keeps
 * every run's output) and the coverage build (whose profile runtime
 * allocates) each leave another heap, and forks of one runner share its
 * stack.  So the last run of a recording gets other ones: its stack lies
 * lower, and one more block of every allocation size class (the allocators'
 * classes, AddressSanitizer's up to 128 KiB) is taken before it.  An output
 * that shows such an address ("object[0x...]") then varies between the runs
 * and is not compared.  Forks of one runner still share what differs only
 * between processes: where a block too big for the classes is mapped, and
 * the addresses of globals and libraries. */
#define SHIFT_BLOCKS 1024u

static void **shift_heap(void) {
  size_t s, n = 0;
  void **blocks = (void **)calloc(SHIFT_BLOCKS, sizeof *blocks);
  if (!blocks)
    return NULL;
  for (s = 1; s <= (size_t)1 << 17 && n < SHIFT_BLOCKS; s += s < 512 ? 4 : s / 16)
    blocks[n++] = malloc(s);
  return blocks;
}

static void free_heap_shift(void **blocks) {
  unsigned i;
  if (!blocks)
    return;
  for (i = 0; i < SHIFT_BLOCKS; i++)
    free(blocks[i]);
  free(blocks);
}

static int selected(const struct symtest_case *c, char **names, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (strcmp(names[i], c->name) == 0)
      return 1;
  return n == 0;
}

/* ---- one run of a test --------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  if (type == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

/* Removes a test's directory with whatever the test left in it (nested
 * directories included; symbolic links are not followed), also when the
 * test took the permissions of its working directory away (chmod("."),
 * libtar's extraction of a directory entry). */
static void remove_tree(const char *dir) {
  if (!dir)
    return;
  chmod(dir, 0700);
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Runs `c` once in a child: its verdict against the engine's expectation
 * (`ok`, and `why` when not), what it did (`o`), and the failures the shim
 * injected.  `perturbed`: another directory name, time zone and locale (a
 * recording's check that the outcome does not depend on them).  Returns -1 if
 * the test could not be started. */
static int run_once(const struct symtest_case *c, unsigned timeout, int perturbed, struct symtest_observed *o,
                    int *ok, char *why, size_t why_size, char *injected, size_t inj_size, int *uninjected) {
  int status, fails, log_fd;
  unsigned timeout_ms;
  enum symtest_expect expect = c->expect;
  pid_t pid;
  char spec[256], fail_log[64];
  struct symtest_capture cap;
  fails = symtest_target_is_program && symtest_case_fail_spec(c, spec, sizeof spec);
  injected[0] = 0;
  fail_log[0] = 0;
  *uninjected = 0;
  if (fails && SYMTEST_INJECT) {
    strcpy(fail_log, "/tmp/symtest-fail-XXXXXX");
    log_fd = mkstemp(fail_log);
    if (log_fd < 0) {
      perror("symtest: failure log");
      return -1;
    }
    close(log_fd);
  } else if (fails && expect == SYMTEST_EXPECT_EXIT) {
    /* Another libc makes other system calls: the failure cannot be replayed. */
    expect = SYMTEST_EXPECT_ANY;
    *uninjected = 1;
  }
  {
    /* Every test runs in a fresh empty directory of its own, removed after
     * it: what one test creates by a relative name (a library's mkdir, a
     * program's output file) is not there for the next, nor left in the
     * suite's directory, so a test ends alike in a recording, in `make test`
     * and run alone. */
    static char dir[64];
    strcpy(dir, perturbed ? "/tmp/symtest-other-XXXXXX" : "/tmp/symtest-files-XXXXXX");
    files_dir = mkdtemp(dir);
    if (!files_dir) {
      perror("symtest: test directory");
      return -1;
    }
  }
  if (symtest_capture_open(&cap) != 0) {
    perror("symtest: capture files");
    remove_tree(files_dir);
    return -1;
  }
  if (perturbed) {
    setenv("TZ", "Pacific/Chatham", 1);
    setenv("LC_ALL", "C.UTF-8", 1);
  }
  other_layout = perturbed;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    perror("fork");
    return -1;
  }
  timeout_ms = c->expect != SYMTEST_EXPECT_EXIT && c->expect != SYMTEST_EXPECT_BUG &&
                       c->expect != SYMTEST_EXPECT_RECORDED && timeout * 1000 > EARLY_TIMEOUT_MS
                   ? EARLY_TIMEOUT_MS
                   : timeout * 1000;
  if (pid == 0)
    run_child(c, timeout_ms, fail_log, &cap);
  if (perturbed) {
    unsetenv("TZ");
    unsetenv("LC_ALL");
  }
  status = symtest_capture_wait(&cap, pid, timeout_ms);
  /* The files a whole program leaves are its behaviour (files.txt). */
  symtest_capture_collect(&cap, status, symtest_target_is_program ? files_dir : NULL, o);
  remove_tree(files_dir);
  files_dir = NULL;
  if (fail_log[0]) {
    read_injected(fail_log, injected, inj_size);
    unlink(fail_log);
  }
  if (WIFEXITED(status)) {
    int code = WEXITSTATUS(status);
    if (code == MISMATCH_EXIT)
      snprintf(why, why_size, "the test vector no longer fits the code (exit %d)", code);
    else if (code == USER_ERROR_EXIT)
      snprintf(why, why_size, "symtest_report_error was called (exit %d)", code);
    else
      snprintf(why, why_size, "exit %d", code);
    switch (expect) {
    case SYMTEST_EXPECT_EXIT: *ok = code == c->exit_code; break;
    case SYMTEST_EXPECT_ANY:
    case SYMTEST_EXPECT_NO_END:
    case SYMTEST_EXPECT_STOPPED:
    case SYMTEST_EXPECT_RECORDED: *ok = code != MISMATCH_EXIT; break;
    default: *ok = code != MISMATCH_EXIT && code != USER_ERROR_EXIT; break;
    }
  } else {
    snprintf(why, why_size, "killed by %s", WIFSIGNALED(status) ? signal_name(WTERMSIG(status)) : "?");
    /* A run the engine saw go on without end, or stopped before its end,
     * may be stopped by the timeout (at most 0.5 s for those): not a crash. */
    /* A run the engine saw go on past its concrete bound makes no claim on
     * what comes after it: a later crash is no disagreement (its recorded
     * behaviour is still compared). */
    *ok = (expect == SYMTEST_EXPECT_ANY && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) ||
          expect == SYMTEST_EXPECT_NO_END || expect == SYMTEST_EXPECT_STOPPED || expect == SYMTEST_EXPECT_RECORDED;
  }
  if (fails && SYMTEST_INJECT)
    snprintf(why + strlen(why), why_size - strlen(why), "; injected: %s", injected[0] ? injected : "none");
  return 0;
}

#ifndef SYMTEST_EXPECTED_DIR
#define SYMTEST_EXPECTED_DIR "expected"
#endif

int main(int argc, char **argv) {
  unsigned i, passed = 0, failed = 0, timeout = 10, runs = 3, recorded = 0, unstable = 0;
  int list = 0, no_bugs = 0, quiet = 0, exit_only = 0, a, n_names = 0;
  unsigned uninjected = 0;
  const char *expected = SYMTEST_EXPECTED_DIR, *record = NULL;
  char **names = (char **)calloc((size_t)argc + 1, sizeof(char *));
  if (!names)
    return 2;
#if SYMTEST_INJECT
  if (argc == 8 && strcmp(argv[1], "--symtest-run-injected") == 0)
    run_injected(argv + 2);
#endif
  for (a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--list") == 0) list = 1;
    else if (strcmp(argv[a], "--no-bugs") == 0) no_bugs = 1;
    else if (strcmp(argv[a], "--quiet") == 0) quiet = 1;
    else if (strcmp(argv[a], "--show-output") == 0) show_output = 1;
    else if (strcmp(argv[a], "--exit-only") == 0) exit_only = 1;
    else if (strcmp(argv[a], "--coverage-dir") == 0 && a + 1 < argc) coverage_dir = argv[++a];
    else if (strcmp(argv[a], "--expected") == 0 && a + 1 < argc) expected = argv[++a];
    else if (strcmp(argv[a], "--record") == 0 && a + 1 < argc) record = argv[++a];
    else if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc) runs = (unsigned)atoi(argv[++a]);
    else if (strcmp(argv[a], "--timeout") == 0 && a + 1 < argc) timeout = (unsigned)atoi(argv[++a]);
    else if (argv[a][0] == '-') {
      fprintf(stderr,
              "usage: %s [--list] [--no-bugs] [--quiet] [--show-output] [--exit-only] [--timeout S]\n"
              "       [--expected DIR] [--record DIR [--runs N]] [--coverage-dir DIR] [TEST...]\n",
              argv[0]);
      return 2;
    } else names[n_names++] = argv[a];
  }
  if (runs < 1 || runs > 10) {
    fputs("symtest: --runs must be 1 to 10\n", stderr);
    return 2;
  }
#ifdef SYMTEST_COVERAGE
  /* Profiles go to an absolute directory: a program's test runs in a
   * directory of its own. */
  {
    static char dir[4096];
    const char *want = coverage_dir ? coverage_dir : "symtest-coverage";
    if (want[0] == '/')
      snprintf(dir, sizeof dir, "%s", want);
    else if (getcwd(dir, sizeof dir / 2))
      snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "/%s", want);
    else {
      perror("symtest: getcwd");
      return 2;
    }
    mkdir(dir, 0777);
    coverage_dir = dir;
    /* The runner's own profile (it runs no code under test). */
    {
      static char own[4200];
      snprintf(own, sizeof own, "%s/symtest-runner.profraw", dir);
      __llvm_profile_set_filename(own);
    }
  }
#endif
  if (list) {
    for (i = 0; i < symtest_num_cases; i++)
      if (selected(&symtest_cases[i], names, n_names) && !(no_bugs && symtest_cases[i].expect == SYMTEST_EXPECT_BUG))
        printf("%s\t%s\n", symtest_cases[i].name, symtest_cases[i].description);
    return 0;
  }
  if (record) {
    /* Each test `runs` times: the streams all runs agree on are recorded;
     * the last run in another directory, time zone and locale, a second
     * later.  Tests that document a bug are not recorded (they fail until
     * it is fixed); a test the engine saw run on without end is run once,
     * for the check `make test` makes of it, and not recorded (where a
     * timeout cuts it off varies). */
    struct symtest_observed *obs =
        (struct symtest_observed *)calloc((size_t)symtest_num_cases * runs, sizeof *obs);
    unsigned r;
    int failures = 0;
    void **heap_shift = NULL;
    if (!obs)
      return 2;
    for (r = 0; r < runs; r++) {
      int perturbed = runs > 1 && r + 1 == runs;
      if (perturbed) {
        (void)symtest_runner_poll(NULL, 0, 1000); /* the code's sleeps and polls return at once */
        heap_shift = shift_heap();
      }
      for (i = 0; i < symtest_num_cases; i++) {
        const struct symtest_case *c = &symtest_cases[i];
        int ok, un;
        char why[512], injected[512];
        if (!selected(c, names, n_names) || c->expect == SYMTEST_EXPECT_BUG ||
            (c->expect == SYMTEST_EXPECT_NO_END && r > 0))
          continue;
        if (run_once(c, timeout, perturbed, &obs[i * runs + r], &ok, why, sizeof why, injected, sizeof injected,
                     &un) != 0)
          return 2;
        if (c->expect == SYMTEST_EXPECT_NO_END)
          symtest_observed_free(&obs[i * runs + r]);
        if (!ok && r == 0) {
          printf("test %s ... not recorded: %s [%s]\n", c->name, why, c->description);
          failures++;
        }
      }
    }
    for (i = 0; i < symtest_num_cases; i++) {
      const struct symtest_case *c = &symtest_cases[i];
      const char *note;
      if (!selected(c, names, n_names) || c->expect == SYMTEST_EXPECT_BUG || c->expect == SYMTEST_EXPECT_NO_END)
        continue;
      if (symtest_record(record, c->name, &obs[i * runs], runs, symtest_target_is_program) != 0) {
        fprintf(stderr, "symtest: cannot write %s/%s: %s\n", record, c->name, strerror(errno));
        return 2;
      }
      recorded++;
      note = symtest_not_compared(record, c->name);
      if (note[0]) {
        unstable++;
        printf("test %s ... recorded (%s)\n", c->name, note);
      } else if (!quiet)
        printf("test %s ... recorded\n", c->name);
      for (r = 0; r < runs; r++)
        symtest_observed_free(&obs[i * runs + r]);
    }
    free(obs);
    free_heap_shift(heap_shift);
    printf("%u recorded, %u with streams not compared, %d not matching the engine\n", recorded, unstable, failures);
    return failures ? 1 : 0;
  }
  for (i = 0; i < symtest_num_cases; i++) {
    const struct symtest_case *c = &symtest_cases[i];
    struct symtest_observed o;
    int ok, un, cmp = -1;
    char why[1024], injected[512];
    if (!selected(c, names, n_names) || (no_bugs && c->expect == SYMTEST_EXPECT_BUG))
      continue;
    if (run_once(c, timeout, 0, &o, &ok, why, sizeof why, injected, sizeof injected, &un) != 0)
      return 2;
    uninjected += (unsigned)un;
    if (show_output)
      symtest_observed_show(&o);
    /* Besides the engine's expectation, the behaviour recorded when the
     * suite was made: stdout, stderr, the files left, harness outputs. */
    if (ok &&
        (c->expect == SYMTEST_EXPECT_EXIT || c->expect == SYMTEST_EXPECT_ANY || c->expect == SYMTEST_EXPECT_STOPPED ||
         c->expect == SYMTEST_EXPECT_RECORDED) &&
        !un) {
      cmp = symtest_compare(expected, c->name, &o, exit_only, why, sizeof why);
      if (cmp == 1)
        ok = 0;
    }
    if (ok) {
      passed++;
      if (!quiet && injected[0] && SYMTEST_INJECT)
        printf("test %s ... ok (injected: %s)\n", c->name, injected);
      else if (!quiet && un) {
        char spec[256];
        symtest_case_fail_spec(c, spec, sizeof spec);
        printf("test %s ... ok (no crash; failures %s not injected: not built with musl)\n", c->name, spec);
      } else if (!quiet)
        printf("test %s ... ok\n", c->name);
    } else {
      failed++;
      if (c->expect == SYMTEST_EXPECT_BUG)
        printf("test %s ... FAILED: BUG still present: %s (%s)\n", c->name, c->description, why);
      else if (cmp == 1)
        printf("test %s ... FAILED: %s [%s]\n", c->name, why, c->description);
      else if (c->expect == SYMTEST_EXPECT_EXIT)
        printf("test %s ... FAILED: expected exit %d, got %s [%s]\n", c->name, c->exit_code, why, c->description);
      else
        printf("test %s ... FAILED: %s [%s]\n", c->name, why, c->description);
      if (c->expect != SYMTEST_EXPECT_BUG) {
        char spec[256];
        fflush(stdout);
        symtest_print_repro(c, symtest_case_fail_spec(c, spec, sizeof spec) ? spec : NULL, stdout);
      }
    }
    symtest_observed_free(&o);
  }
  if (uninjected)
    printf("note: %u test(s) inject system-call failures (--max-fail) and were only checked for no crash:"
           " exact replay needs the musl build (make LIBC=musl, with clang)\n", uninjected);
  printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
