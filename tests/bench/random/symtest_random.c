/*
 * symtest_random.c - the random-testing baseline of `cargo xtask bench`
 * (the KLEE paper's section 5.2.4).
 *
 * It implements the functions of <symtest.h> by drawing random values, so
 * a harness written for symtest runs unchanged: every symbolic object gets
 * uniformly random bytes of its size, symtest_range draws a value in its
 * interval, and a run whose symtest_assume fails is rejected and retried
 * with fresh values.  It is linked with the harness compiled with
 *
 *   clang-19 -Dmain=symtest_program_main
 *            -fsanitize=signed-integer-overflow,shift,integer-divide-by-zero
 *            -fno-sanitize-recover=all -fsanitize-coverage=trace-pc-guard
 *
 * and runs the harness's main over and over, each run in a forked child
 * with a time limit, for a wall-clock budget.  Coverage comes from the
 * trace-pc-guard callbacks below (one counter per edge, in memory shared
 * with the parent).  An input is kept when its run reaches an edge no
 * earlier run reached, or when it crashes at a place (last edge + how it
 * ended) where no earlier run crashed.  Kept inputs are written as KLEE
 * .ktest files (testNNNNNN.ktest) so that the benchmark measures them
 * exactly like symtest's own tests, by native replay under gcov and under
 * ASan (no ASan here: forking an ASan process costs about 30 times as
 * much, which would cut the number of random runs by a factor of ten;
 * memory errors that do not crash are found when the kept inputs are
 * replayed).
 *
 * usage: PROGRAM OUTDIR BUDGET_SECONDS SEED [RUN_TIMEOUT_MS] [-- SHAPE...]
 *
 * Without `--` the linked code is a harness: its main runs with argv
 * {"program"} and draws its inputs through <symtest.h>.  With `--` it is a
 * whole program (a command-line utility) and SHAPE are the program
 * arguments symtest's POSIX environment takes after `--` (KLEE's
 * options): concrete words, `--sym-arg N`, `--sym-args MIN MAX N`,
 * `--sym-files NUM N`, `--sym-stdin N` and `--sym-stdout` (ignored).  Each
 * run draws inputs of exactly those shapes: the number of arguments of a
 * `--sym-args` group uniformly in MIN..MAX, each argument a string of
 * uniformly random length 0..N, files A, B, ... and stdin of N bytes.  A
 * byte is printable ASCII or a newline/tab with probability 1/2, else any
 * byte (arguments never hold a NUL inside), so a utility's options and
 * separators are drawn often enough to be a fair baseline.  The files are
 * written to a scratch directory that is the run's working directory, and
 * stdin is a pipe.  Kept inputs are recorded as the objects symtest's
 * environment writes (n_args, argNN, A-data, A-data-stat, stdin,
 * stdin-stat, model_version), with SHAPE as the test's argument list, so
 * `cargo symtest replay --native` replays them like symtest's own tests.
 *
 * OUTDIR receives the tests, timeline.tsv (one line per kept test: name,
 * seconds since start, status) and random-stats.json.
 */
#include "symtest.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int symtest_program_main(int argc, char **argv);

#define MAX_GUARDS (1u << 20)
#define MAX_OBJECTS 256
#define MAX_DATA (1u << 20)
#define NAME_LEN 64
#define REJECT_EXIT 125
#define USER_ERROR_EXIT 124

struct recorded_object {
  char name[NAME_LEN];
  uint32_t size;
  uint32_t offset;
};

/* Written by the child, read by the parent after each run. */
struct shared {
  uint32_t last_guard;
  uint32_t num_objects;
  uint32_t data_used;
  uint32_t overflowed; /* the run made more or bigger objects than recorded */
  struct recorded_object objects[MAX_OBJECTS];
  unsigned char data[MAX_DATA];
};

static unsigned char *hits;     /* MAP_SHARED, one byte per guard */
static uint32_t num_guards;
static struct shared *shm;
static uint64_t rng_state;

/* The .ktest's argument list: "program" and, in program mode, SHAPE. */
static int ktest_argc = 1;
static char **ktest_argv;
static char *program_name[] = {"program", NULL};

/* Sanitizer options: stop at the first report, die by SIGABRT, stay quiet
 * and fast (no symbolization: the parent only needs the status). */
const char *__asan_default_options(void) {
  return "abort_on_error=1:detect_leaks=0:symbolize=0:"
         "allocator_may_return_null=1:max_allocation_size_mb=1024:strict_memcmp=0:"
         "handle_abort=0:print_summary=0";
}
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:abort_on_error=1:print_stacktrace=0:symbolize=0";
}

static void *shared_map(size_t n) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                 -1, 0);
  if (p == MAP_FAILED) {
    perror("symtest-random: mmap");
    _exit(2);
  }
  return p;
}

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
  uint32_t *g;
  if (start == stop || *start)
    return;
  if (!hits)
    hits = shared_map(MAX_GUARDS);
  for (g = start; g < stop; g++) {
    if (num_guards + 1 >= MAX_GUARDS) {
      *g = 0;
      continue;
    }
    *g = ++num_guards;
  }
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
  uint32_t g = *guard;
  if (!g)
    return;
  hits[g] = 1;
  if (shm)
    shm->last_guard = g;
}

/* xorshift64* */
static uint64_t next_random(void) {
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static void record(const char *name, const void *bytes, size_t n) {
  struct recorded_object *o;
  if (shm->num_objects >= MAX_OBJECTS || n > MAX_DATA - shm->data_used) {
    shm->overflowed = 1;
    return;
  }
  o = &shm->objects[shm->num_objects++];
  snprintf(o->name, NAME_LEN, "%s", name ? name : "unnamed");
  o->size = (uint32_t)n;
  o->offset = shm->data_used;
  memcpy(shm->data + shm->data_used, bytes, n);
  shm->data_used += (uint32_t)n;
}

/* ------------------------------------------------------------------ */
/* <symtest.h> for random runs */

void symtest_make_symbolic(void *addr, size_t nbytes, const char *name) {
  unsigned char *p = addr;
  size_t i;
  for (i = 0; i < nbytes; i++)
    p[i] = (unsigned char)(next_random() >> 56);
  record(name, addr, nbytes);
}

void symtest_assume(uintptr_t condition) {
  if (!condition)
    _exit(REJECT_EXIT);
}

int symtest_range(int lo, int hi, const char *name) {
  int r;
  uint64_t span;
  if (lo >= hi)
    _exit(REJECT_EXIT);
  if (lo + 1 == hi)
    return lo;
  span = (uint64_t)((int64_t)hi - (int64_t)lo);
  r = (int)((int64_t)lo + (int64_t)(next_random() % span));
  record(name, &r, sizeof r);
  return r;
}

int symtest_int(const char *name) {
  int r;
  symtest_make_symbolic(&r, sizeof r, name);
  return r;
}

void symtest_assert(int cond) {
  if (!cond)
    abort();
}

void symtest_prefer_cex(void *obj, uintptr_t cond) {
  (void)obj;
  (void)cond;
}

unsigned symtest_is_symbolic(uintptr_t n) {
  (void)n;
  return 0;
}

int32_t symtest_get_value_i32(int32_t x) { return x; }
int64_t symtest_get_value_i64(int64_t x) { return x; }
uint32_t symtest_get_value_u32(uint32_t x) { return x; }
uint64_t symtest_get_value_u64(uint64_t x) { return x; }
void *symtest_get_value_ptr(void *x) { return x; }
void symtest_silent_exit(int status) { exit(status); }

void symtest_report_error(const char *file, int line, const char *message,
                          const char *suffix) {
  (void)file;
  (void)line;
  (void)message;
  (void)suffix;
  exit(USER_ERROR_EXIT);
}

void symtest_abort(void) { abort(); }
void symtest_print_expr(const char *msg, ...) { (void)msg; }
void symtest_warning(const char *message) { (void)message; }

/* ------------------------------------------------------------------ */
/* the driver */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void put_u32(FILE *f, uint32_t v) {
  unsigned char b[4];
  b[0] = (unsigned char)(v >> 24);
  b[1] = (unsigned char)(v >> 16);
  b[2] = (unsigned char)(v >> 8);
  b[3] = (unsigned char)v;
  fwrite(b, 1, 4, f);
}

static void put_str(FILE *f, const char *s, size_t n) {
  put_u32(f, (uint32_t)n);
  fwrite(s, 1, n, f);
}

/* KLEE's .ktest format, version 3 (see engine/ktest). */
static int write_ktest(const char *path) {
  uint32_t i;
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  fwrite("KTEST", 1, 5, f);
  put_u32(f, 3);
  put_u32(f, (uint32_t)ktest_argc);
  for (i = 0; i < (uint32_t)ktest_argc; i++)
    put_str(f, ktest_argv[i], strlen(ktest_argv[i]));
  put_u32(f, 0); /* sym-argvs */
  put_u32(f, 0); /* sym-argv-len */
  put_u32(f, shm->num_objects);
  for (i = 0; i < shm->num_objects; i++) {
    const struct recorded_object *o = &shm->objects[i];
    put_str(f, o->name, strlen(o->name));
    put_u32(f, o->size);
    fwrite(shm->data + o->offset, 1, o->size, f);
  }
  return fclose(f);
}

/* ------------------------------------------------------------------ */
/* program mode: random argv, files and stdin of the given shapes */

#define MAX_SHAPES 64
#define MAX_ARGV 256
#define STAT_SIZE 144 /* struct stat64 of x86_64 Linux, as the engine's */
#define ST_MODE_OFFSET 24
#define ST_SIZE_OFFSET 48

enum shape_kind { WORD, SYM_ARG, SYM_ARGS, SYM_FILES, SYM_STDIN };

struct shape {
  enum shape_kind kind;
  const char *word;   /* WORD */
  unsigned long a, b, n; /* SYM_ARGS: MIN MAX N; SYM_ARG/FILES/STDIN: a, n */
};

static struct shape shapes[MAX_SHAPES];
static int num_shapes;
static int program_mode;

static int shape_number(char **words, int i, int count, unsigned long *out) {
  char *end;
  if (i >= count)
    return -1;
  errno = 0;
  *out = strtoul(words[i], &end, 10);
  return (errno || *end || !*words[i] || *out > 4096) ? -1 : 0;
}

static int option_is(const char *w, const char *name) {
  if (w[0] != '-')
    return 0;
  w += w[1] == '-' ? 2 : 1;
  return strcmp(w, name) == 0;
}

/* Parses SHAPE (the words after `--`); prints why and returns -1 when it
 * is not one symtest's environment takes. */
static int parse_shapes(char **words, int count) {
  int i = 0;
  while (i < count) {
    struct shape *s;
    if (num_shapes == MAX_SHAPES) {
      fprintf(stderr, "symtest-random: more than %d shape words\n", MAX_SHAPES);
      return -1;
    }
    s = &shapes[num_shapes++];
    memset(s, 0, sizeof *s);
    if (option_is(words[i], "sym-arg")) {
      s->kind = SYM_ARG;
      if (shape_number(words, i + 1, count, &s->n))
        goto bad;
      i += 2;
    } else if (option_is(words[i], "sym-args")) {
      s->kind = SYM_ARGS;
      if (shape_number(words, i + 1, count, &s->a) ||
          shape_number(words, i + 2, count, &s->b) ||
          shape_number(words, i + 3, count, &s->n) || s->a > s->b)
        goto bad;
      i += 4;
    } else if (option_is(words[i], "sym-files")) {
      s->kind = SYM_FILES;
      if (shape_number(words, i + 1, count, &s->a) ||
          shape_number(words, i + 2, count, &s->n) || s->a > 26)
        goto bad;
      i += 3;
    } else if (option_is(words[i], "sym-stdin")) {
      s->kind = SYM_STDIN;
      if (shape_number(words, i + 1, count, &s->n))
        goto bad;
      i += 2;
    } else if (option_is(words[i], "sym-stdout")) {
      num_shapes--; /* stdout is not an input */
      i += 1;
    } else if (option_is(words[i], "max-fail")) {
      fprintf(stderr, "symtest-random: --max-fail is not supported (random "
                      "testing does not inject system-call failures)\n");
      return -1;
    } else {
      s->kind = WORD;
      s->word = words[i];
      i += 1;
    }
  }
  return 0;
bad:
  fprintf(stderr, "symtest-random: bad shape at `%s` (expected --sym-arg N, "
                  "--sym-args MIN MAX N with MIN <= MAX, --sym-files NUM N "
                  "with NUM <= 26, --sym-stdin N; N <= 4096)\n",
          words[i]);
  return -1;
}

static unsigned char random_byte(int allow_nul) {
  static const char printable[] =
      " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
      "abcdefghijklmnopqrstuvwxyz{|}~\n\t";
  uint64_t r = next_random();
  unsigned char c;
  if (r >> 63)
    return (unsigned char)printable[(r >> 8) % (sizeof printable - 1)];
  c = (unsigned char)(r >> 32);
  if (!allow_nul && c == 0)
    c = 1 + (unsigned char)((r >> 40) % 255);
  return c;
}

static void put_le(unsigned char *p, uint64_t v, int n) {
  int i;
  for (i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static void make_stat(unsigned char *st, unsigned long size) {
  memset(st, 0, STAT_SIZE);
  put_le(st + ST_MODE_OFFSET, S_IFREG | 0644, 4);
  put_le(st + ST_SIZE_OFFSET, size, 8);
}

/* Draws one argument string of up to n bytes, records it as `argNN` (n+1
 * bytes, NUL-padded) and returns a copy for argv. */
static char *random_arg(unsigned *next_arg, unsigned long n) {
  char name[16];
  unsigned char *bytes = calloc(n + 1, 1);
  unsigned long len, k;
  if (!bytes)
    _exit(2);
  len = (unsigned long)(next_random() % (n + 1));
  for (k = 0; k < len; k++)
    bytes[k] = random_byte(0);
  snprintf(name, sizeof name, "arg%02u", (*next_arg)++);
  record(name, bytes, n + 1);
  return (char *)bytes;
}

static void write_file(const char *name, const unsigned char *data,
                       unsigned long n) {
  int fd;
  unlink(name);
  fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || write(fd, data, n) != (ssize_t)n || close(fd) != 0) {
    shm->overflowed = 1; /* not a run of the program: never kept */
    _exit(2);
  }
}

/* In the forked child: draws a world of the shapes, sets it up in the
 * current directory and runs the program's main. */
static int run_program_mode(void) {
  static char *argv_out[MAX_ARGV + 2];
  int argc_out = 0, s;
  unsigned next_arg = 0;
  unsigned char st[STAT_SIZE];
  int have_stdin = 0;
  argv_out[argc_out++] = "program";
  /* Arguments first, then files, then stdin, as the engine creates them. */
  for (s = 0; s < num_shapes; s++) {
    const struct shape *sh = &shapes[s];
    if (sh->kind == WORD && argc_out < MAX_ARGV) {
      argv_out[argc_out++] = (char *)sh->word;
    } else if (sh->kind == SYM_ARG) {
      char *a = random_arg(&next_arg, sh->n);
      if (argc_out < MAX_ARGV)
        argv_out[argc_out++] = a;
    } else if (sh->kind == SYM_ARGS) {
      unsigned long count = sh->a + next_random() % (sh->b - sh->a + 1), k;
      unsigned char n_le[4];
      put_le(n_le, count, 4);
      record("n_args", n_le, 4);
      for (k = 0; k < sh->b; k++) {
        char *a = random_arg(&next_arg, sh->n);
        if (k < count && argc_out < MAX_ARGV)
          argv_out[argc_out++] = a;
      }
    }
  }
  argv_out[argc_out] = NULL;
  for (s = 0; s < num_shapes; s++) {
    const struct shape *sh = &shapes[s];
    unsigned long f, k;
    if (sh->kind != SYM_FILES)
      continue;
    for (f = 0; f < sh->a; f++) {
      char name[2] = {(char)('A' + f), 0};
      char obj[16];
      unsigned char *data = malloc(sh->n + 1);
      if (!data)
        _exit(2);
      for (k = 0; k < sh->n; k++)
        data[k] = random_byte(1);
      snprintf(obj, sizeof obj, "%s-data", name);
      record(obj, data, sh->n);
      make_stat(st, sh->n);
      snprintf(obj, sizeof obj, "%s-data-stat", name);
      record(obj, st, STAT_SIZE);
      write_file(name, data, sh->n);
      free(data);
    }
  }
  for (s = 0; s < num_shapes; s++) {
    const struct shape *sh = &shapes[s];
    unsigned char *data;
    unsigned long k;
    int fds[2];
    if (sh->kind != SYM_STDIN || have_stdin)
      continue;
    have_stdin = 1;
    data = malloc(sh->n + 1);
    if (!data || pipe(fds) != 0)
      _exit(2);
    for (k = 0; k < sh->n; k++)
      data[k] = random_byte(1);
    record("stdin", data, sh->n);
    make_stat(st, sh->n);
    record("stdin-stat", st, STAT_SIZE);
    /* N <= 4096 fits in the pipe's buffer. */
    if (sh->n && write(fds[1], data, sh->n) != (ssize_t)sh->n)
      _exit(2);
    close(fds[1]);
    dup2(fds[0], 0);
    close(fds[0]);
    free(data);
  }
  if (!have_stdin) {
    int fd = open("/dev/null", O_RDONLY);
    dup2(fd, 0);
  }
  {
    unsigned char version[4];
    put_le(version, 1, 4);
    record("model_version", version, 4);
  }
  return symtest_program_main(argc_out, argv_out);
}

struct crash_site {
  uint32_t guard;
  int status;
};

int main(int argc, char **argv) {
  const char *outdir;
  double budget, start, elapsed;
  unsigned long long seed;
  long timeout_ms = 1000;
  unsigned char *seen;
  struct crash_site *crashes = NULL;
  size_t ncrashes = 0, crashes_cap = 0;
  unsigned long long runs = 0, rejected = 0, timeouts = 0, crashed = 0;
  unsigned kept = 0;
  FILE *timeline;
  char path[4096];
  int devnull;

  char workdir[4096];
  int i, positional = argc;

  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      positional = i;
      program_mode = 1;
      if (parse_shapes(argv + i + 1, argc - i - 1) != 0)
        return 2;
      break;
    }
  }
  ktest_argv = program_name;
  if (program_mode) {
    /* "program" followed by SHAPE, as the engine's .ktest lists them. */
    ktest_argv = argv + positional;
    ktest_argv[0] = program_name[0];
    ktest_argc = argc - positional;
  }
  argc = positional;
  if (argc < 4 || argc > 5) {
    fprintf(stderr,
            "usage: %s OUTDIR BUDGET_SECONDS SEED [RUN_TIMEOUT_MS] "
            "[-- SHAPE...]\n",
            argv[0]);
    return 2;
  }
  outdir = argv[1];
  budget = atof(argv[2]);
  seed = strtoull(argv[3], NULL, 10);
  if (argc > 4)
    timeout_ms = atol(argv[4]);
  if (budget <= 0 || timeout_ms <= 0) {
    fprintf(stderr, "symtest-random: budget and timeout must be positive\n");
    return 2;
  }
  if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
    perror("symtest-random: mkdir");
    return 2;
  }
  if (!hits)
    hits = shared_map(MAX_GUARDS);
  shm = shared_map(sizeof *shm);
  seen = calloc(MAX_GUARDS, 1);
  snprintf(path, sizeof path, "%s/timeline.tsv", outdir);
  timeline = fopen(path, "w");
  devnull = open("/dev/null", O_WRONLY);
  if (!seen || !timeline || devnull < 0) {
    fprintf(stderr, "symtest-random: cannot set up %s\n", outdir);
    return 2;
  }
  snprintf(workdir, sizeof workdir, "%s/work", outdir);
  if (program_mode && mkdir(workdir, 0777) != 0 && errno != EEXIST) {
    perror("symtest-random: mkdir work");
    return 2;
  }
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
  start = now_s();

  for (;;) {
    uint64_t run_seed;
    pid_t pid;
    int status = 0, fresh = 0;
    uint32_t g;

    elapsed = now_s() - start;
    if (elapsed >= budget)
      break;
    run_seed = next_random() | 1;
    memset(hits, 0, (size_t)num_guards + 1);
    shm->num_objects = 0;
    shm->data_used = 0;
    shm->overflowed = 0;
    shm->last_guard = 0;
    pid = fork();
    if (pid < 0) {
      perror("symtest-random: fork");
      return 2;
    }
    if (pid == 0) {
      struct itimerval t;
      char *child_argv[2] = {"program", NULL};
      dup2(devnull, 1);
      dup2(devnull, 2);
      memset(&t, 0, sizeof t);
      t.it_value.tv_sec = timeout_ms / 1000;
      t.it_value.tv_usec = (timeout_ms % 1000) * 1000;
      setitimer(ITIMER_REAL, &t, NULL);
      rng_state = run_seed;
      if (program_mode) {
        if (chdir(workdir) != 0)
          _exit(2);
        exit(run_program_mode());
      }
      exit(symtest_program_main(1, child_argv));
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    runs++;
    if (!program_mode && WIFEXITED(status) && WEXITSTATUS(status) == REJECT_EXIT) {
      rejected++;
      continue;
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
      timeouts++;
    for (g = 1; g <= num_guards; g++) {
      if (hits[g] && !seen[g]) {
        seen[g] = 1;
        fresh = 1;
      }
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) != SIGALRM) {
      size_t i;
      int known = 0;
      crashed++;
      for (i = 0; i < ncrashes; i++)
        if (crashes[i].guard == shm->last_guard && crashes[i].status == status)
          known = 1;
      if (!known) {
        if (ncrashes == crashes_cap) {
          crashes_cap = crashes_cap ? 2 * crashes_cap : 16;
          crashes = realloc(crashes, crashes_cap * sizeof *crashes);
          if (!crashes)
            return 2;
        }
        crashes[ncrashes].guard = shm->last_guard;
        crashes[ncrashes].status = status;
        ncrashes++;
        fresh = 1;
      }
    }
    if (fresh && !shm->overflowed) {
      kept++;
      snprintf(path, sizeof path, "%s/test%06u.ktest", outdir, kept);
      if (write_ktest(path) != 0) {
        fprintf(stderr, "symtest-random: cannot write %s\n", path);
        return 2;
      }
      fprintf(timeline, "test%06u\t%.6f\t%d\n", kept, now_s() - start, status);
      fflush(timeline);
    }
  }
  fclose(timeline);
  {
    unsigned covered = 0;
    uint32_t g;
    FILE *f;
    for (g = 1; g <= num_guards; g++)
      covered += seen[g];
    snprintf(path, sizeof path, "%s/random-stats.json", outdir);
    f = fopen(path, "w");
    if (!f)
      return 2;
    fprintf(f,
            "{\n  \"time_s\": %.6f,\n  \"budget_s\": %.3f,\n  \"seed\": %llu,\n"
            "  \"runs\": %llu,\n  \"rejected\": %llu,\n  \"timeouts\": %llu,\n"
            "  \"crashes\": %llu,\n  \"kept\": %u,\n  \"edges\": %u,\n"
            "  \"edges_covered\": %u\n}\n",
            now_s() - start, budget, seed, runs, rejected, timeouts, crashed,
            kept, num_guards, covered);
    fclose(f);
  }
  return 0;
}
