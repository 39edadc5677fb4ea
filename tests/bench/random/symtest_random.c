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
 * usage: PROGRAM OUTDIR BUDGET_SECONDS SEED [RUN_TIMEOUT_MS]
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

/* Sanitizer options: stop at the first report, die by SIGABRT, stay quiet
 * and fast (no symbolization: the parent only needs the status). */
const char *__asan_default_options(void) {
  return "abort_on_error=1:detect_leaks=0:symbolize=0:"
         "allocator_may_return_null=1:handle_abort=0:print_summary=0";
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
  put_u32(f, 1);
  put_str(f, "program", 7);
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

  if (argc < 4) {
    fprintf(stderr,
            "usage: %s OUTDIR BUDGET_SECONDS SEED [RUN_TIMEOUT_MS]\n",
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
      exit(symtest_program_main(1, child_argv));
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    runs++;
    if (WIFEXITED(status) && WEXITSTATUS(status) == REJECT_EXIT) {
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
