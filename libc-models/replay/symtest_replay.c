/*
 * symtest_replay.c - native replay runtime for symtest test cases.
 *
 * Link this file into a natively compiled harness (cargo-symtest does it with
 * ASan/UBSan enabled) and run the program with SYMTEST_KTEST=<file.ktest>
 * (KLEE's KTEST_FILE is accepted as well).  Before main, the environment is
 * emptied (as the engine's is), but for GCOV_PREFIX* and LLVM_PROFILE_FILE.
 * Every function of <symtest.h> and <klee/klee.h> is defined here:
 *
 *   - symtest_make_symbolic / klee_make_symbolic copy the next object of the
 *     .ktest into memory; symtest_int / symtest_range and their klee_ forms
 *     read the next object as an int.  Objects are consumed in file order,
 *     which is the order in which the engine created them on that path.
 *   - symtest_assume / klee_assume check their condition.
 *   - assertion, abort and user-error functions report and stop the program.
 *   - the remaining functions are harmless (identity / no-op / print).
 *
 * Exit codes reserved by this runtime:
 *   125  replay mismatch: no test file, unreadable or corrupt test file
 *        (what symtest's reader rejects: bad magic or version, truncation,
 *        names or arguments that are not UTF-8, bytes after the last object), no
 *        object left, object size differs from the requested size, a value
 *        outside its symtest_range, or a false assumption.  The test case
 *        does not describe this run; the program's own behaviour was not
 *        observed past that point.
 *   124  symtest_report_error / klee_report_error (a user-defined error).
 * A test of a path the engine stopped before its end (its run concretely
 * without an end within the engine's allowance, or halted) may lack the input
 * the path makes past that point, where the engine claims nothing: with
 * SYMTEST_REPLAY_PAST_END=1 (cargo-symtest sets it for such a test), the run
 * takes zeros past the last object, and an input that does not fit from
 * then on (a size, a range, an assumption) ends it with exit 0, as in an
 * emitted suite.
 * symtest_assert / symtest_abort / klee_abort end with abort() (SIGABRT).
 *
 * C11 with POSIX (mmap, sysconf) and AddressSanitizer's interface when the
 * harness is built with it.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_FIXED_NOREPLACE */
#include "../include/klee/klee.h"
#include "../include/symtest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef MAP_FIXED_NOREPLACE
#define REPLAY_MAP_NOREPLACE MAP_FIXED_NOREPLACE
#else
#define REPLAY_MAP_NOREPLACE 0x100000
#endif

#define REPLAY_MISMATCH_EXIT 125
#define USER_ERROR_EXIT 124

/* Every allocation starts zero-filled, as the engine's objects do:
 * AddressSanitizer otherwise fills a fresh block's first 4 KiB with 0xbe
 * and leaves a reused block's old bytes, so a program reading memory it
 * never wrote (chmlib's LZX tables, read after a failed call left them
 * unbuilt) takes another path natively. Blocks above 128 KiB come from
 * fresh mappings, zero already. An allocation above the engine's default
 * limit (1024 MiB, `exec --max-alloc-size`) returns NULL, as in the engine.
 * memcmp reads up to the first difference, as the engine's does
 * (strict_memcmp=0; by default ASan checks the whole length first).
 * The ASAN_OPTIONS of a run override these one by one (`cargo symtest
 * replay` gives the limit of the run that wrote the test). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "malloc_fill_byte=0:max_malloc_fill_size=1048576:"
         "allocator_may_return_null=1:max_allocation_size_mb=1024:strict_memcmp=0";
}

struct replay_object {
  const char *name; /* NUL-terminated copy */
  const unsigned char *bytes;
  uint32_t size;
};

static int replay_loaded;
static const char *replay_path;
static unsigned char *replay_file;     /* whole file contents */
static struct replay_object *replay_objects;
static uint32_t replay_num_objects;
static uint32_t replay_next_object;
static int replay_past_end; /* SYMTEST_REPLAY_PAST_END=1 */
static int replay_padding;  /* past the last object already */

#if defined(__GNUC__) || defined(__clang__)
#define REPLAY_PRINTF_LIKE __attribute__((__format__(__printf__, 1, 2)))
#else
#define REPLAY_PRINTF_LIKE
#endif

static _Noreturn void replay_fail(const char *fmt, ...) REPLAY_PRINTF_LIKE;

static _Noreturn void replay_fail(const char *fmt, ...) {
  va_list ap;
  fputs(replay_padding ? "symtest-replay: past the input the engine made for "
                         "this path before it stopped: "
                       : "symtest-replay: ",
        stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\n", stderr);
  fflush(stderr);
  exit(replay_padding ? 0 : REPLAY_MISMATCH_EXIT);
}

/* Cursor over the file contents; every read is bounds-checked. */
struct replay_cursor {
  const unsigned char *data;
  size_t size;
  size_t pos;
};

static uint32_t read_u32(struct replay_cursor *c, const char *what) {
  uint32_t v;
  if (c->size - c->pos < 4)
    replay_fail("corrupt test file '%s': truncated %s at offset %zu",
                replay_path, what, c->pos);
  v = ((uint32_t)c->data[c->pos] << 24) | ((uint32_t)c->data[c->pos + 1] << 16) |
      ((uint32_t)c->data[c->pos + 2] << 8) | (uint32_t)c->data[c->pos + 3];
  c->pos += 4;
  return v;
}

static const unsigned char *read_bytes(struct replay_cursor *c, uint32_t n,
                                       const char *what) {
  const unsigned char *p;
  if (c->size - c->pos < (size_t)n)
    replay_fail("corrupt test file '%s': truncated %s at offset %zu "
                "(%u bytes needed, %zu left)",
                replay_path, what, c->pos, n, c->size - c->pos);
  p = c->data + c->pos;
  c->pos += n;
  return p;
}

/* Names and arguments are UTF-8 (as symtest's own reader requires): 1 to 4
 * byte sequences, no overlong forms, no surrogates, nothing above U+10FFFF. */
static int valid_utf8(const unsigned char *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char b = p[i];
    size_t len;
    uint32_t cp, min;
    if (b < 0x80) {
      i++;
      continue;
    } else if ((b & 0xe0) == 0xc0) {
      len = 2, cp = b & 0x1f, min = 0x80;
    } else if ((b & 0xf0) == 0xe0) {
      len = 3, cp = b & 0x0f, min = 0x800;
    } else if ((b & 0xf8) == 0xf0) {
      len = 4, cp = b & 0x07, min = 0x10000;
    } else {
      return 0;
    }
    if (n - i < len)
      return 0;
    for (size_t k = 1; k < len; k++) {
      if ((p[i + k] & 0xc0) != 0x80)
        return 0;
      cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return 0;
    i += len;
  }
  return 1;
}

static void *replay_alloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p)
    replay_fail("out of memory while reading '%s'", replay_path);
  return p;
}

/* The test file named in the environment, read before the program runs. */
static char *replay_env_path;

/* The environment every program sees under the engine
 * (PROGRAM_ENVIRONMENT in engine/executor/src/environment.rs). Writable, as a
 * process's environment strings are (and the engine's): a program may edit a
 * variable in place, which would fault on string literals. */
static char replay_environment[][64] = {
    "HOME=/symtest", "PATH=/usr/local/bin:/usr/bin:/bin", "PWD=/symtest"};

/* The program sees the environment it has under the engine: the test's
 * variables (and any other) are removed before main, but for gcov's and
 * LLVM's profile variables, so coverage data still goes where asked, and the
 * engine's fixed variables take their place. The array is rewritten in place,
 * so main's envp is that environment too (`replay` starts the program with
 * those variables, so there is room). */
__attribute__((constructor)) static void replay_fixed_environment(void) {
  extern char **environ;
  const size_t fixed = sizeof replay_environment / sizeof replay_environment[0];
  const char *p = getenv("SYMTEST_KTEST");
  size_t n = 0, k = 0, i;
  if (!p || !*p)
    p = getenv("KTEST_FILE");
  if (p && *p)
    replay_env_path = strdup(p);
  p = getenv("SYMTEST_REPLAY_PAST_END");
  replay_past_end = p && strcmp(p, "1") == 0;
  if (!environ)
    return;
  while (environ[n])
    n++;
  for (i = 0; i < n; i++) {
    char *e = environ[i];
    if (strncmp(e, "GCOV_PREFIX", 11) == 0 ||
        strncmp(e, "LLVM_PROFILE_FILE=", 18) == 0)
      environ[k++] = e;
  }
  for (i = 0; i < fixed && k < n; i++)
    environ[k++] = replay_environment[i];
  environ[k] = NULL;
  /* Started by hand with fewer variables: getenv sees the rest. */
  for (; i < fixed; i++)
    putenv(replay_environment[i]);
}

static void load_test(void) {
  FILE *f;
  long len;
  struct replay_cursor c;
  uint32_t version, num_args, i;

  if (replay_loaded)
    return;
  replay_loaded = 1;

  replay_path = replay_env_path;
  if (!replay_path || !*replay_path)
    replay_fail("no test case: set SYMTEST_KTEST (or KTEST_FILE) to a "
                ".ktest file");

  f = fopen(replay_path, "rb");
  if (!f)
    replay_fail("cannot open test file '%s'", replay_path);
  if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0)
    replay_fail("cannot read test file '%s'", replay_path);
  replay_file = (unsigned char *)replay_alloc((size_t)len);
  if (len > 0 && fread(replay_file, 1, (size_t)len, f) != (size_t)len)
    replay_fail("cannot read test file '%s'", replay_path);
  fclose(f);

  c.data = replay_file;
  c.size = (size_t)len;
  c.pos = 0;
  {
    const unsigned char *magic = read_bytes(&c, 5, "magic");
    if (memcmp(magic, "KTEST", 5) != 0 && memcmp(magic, "BOUT\n", 5) != 0)
      replay_fail("'%s' is not a .ktest file (bad magic at offset 0)",
                  replay_path);
  }
  version = read_u32(&c, "version");
  if (version < 1 || version > 3)
    replay_fail("test file '%s': unsupported version %u at offset 5",
                replay_path, version);
  num_args = read_u32(&c, "argument count");
  for (i = 0; i < num_args; i++) {
    uint32_t n = read_u32(&c, "argument length");
    const unsigned char *arg = read_bytes(&c, n, "argument");
    if (!valid_utf8(arg, n))
      replay_fail("corrupt test file '%s': argument %u is not valid UTF-8",
                  replay_path, i);
  }
  if (version >= 2) {
    (void)read_u32(&c, "sym-argvs");
    (void)read_u32(&c, "sym-argv-len");
  }
  replay_num_objects = read_u32(&c, "object count");
  /* Each object needs at least 8 bytes: refuse absurd counts before
   * allocating. */
  if ((size_t)replay_num_objects > (c.size - c.pos) / 8)
    replay_fail("corrupt test file '%s': %u objects cannot fit in %zu bytes",
                replay_path, replay_num_objects, c.size - c.pos);
  replay_objects = (struct replay_object *)replay_alloc(
      sizeof(struct replay_object) * (size_t)replay_num_objects);
  for (i = 0; i < replay_num_objects; i++) {
    uint32_t name_len = read_u32(&c, "object name length");
    const unsigned char *name = read_bytes(&c, name_len, "object name");
    char *copy;
    if (!valid_utf8(name, name_len))
      replay_fail("corrupt test file '%s': the name of object %u is not "
                  "valid UTF-8",
                  replay_path, i);
    copy = (char *)replay_alloc((size_t)name_len + 1);
    memcpy(copy, name, name_len);
    replay_objects[i].name = copy;
    replay_objects[i].size = read_u32(&c, "object size");
    replay_objects[i].bytes = read_bytes(&c, replay_objects[i].size,
                                         "object bytes");
  }
  if (c.pos != c.size)
    replay_fail("corrupt test file '%s': %zu unexpected bytes after the last "
                "object, at offset %zu",
                replay_path, c.size - c.pos, c.pos);
}

/* The next object for a request of nbytes named name.  Like KLEE's replay
 * library, a "model_version" object (written by KLEE's POSIX runtime) is
 * skipped unless it is what the program asks for. */
static const struct replay_object *next_object(const char *name,
                                               size_t nbytes) {
  const struct replay_object *o;
  load_test();
  for (;;) {
    if (replay_next_object >= replay_num_objects && replay_past_end) {
      static struct replay_object zero;
      replay_padding = 1;
      zero.name = name;
      zero.size = (uint32_t)nbytes;
      zero.bytes = (const unsigned char *)calloc(nbytes ? nbytes : 1, 1);
      if (!zero.bytes || (size_t)zero.size != nbytes)
        replay_fail("cannot make %zu zero bytes for '%s'", nbytes, name);
      return &zero;
    }
    if (replay_next_object >= replay_num_objects)
      replay_fail("out of inputs: the program asks for object %u ('%s', %zu "
                  "bytes) but '%s' has only %u",
                  replay_next_object, name, nbytes, replay_path,
                  replay_num_objects);
    o = &replay_objects[replay_next_object++];
    if (strcmp(o->name, "model_version") == 0 &&
        strcmp(name, "model_version") != 0)
      continue;
    break;
  }
  if ((size_t)o->size != nbytes)
    replay_fail("object %u ('%s') has %u bytes but the program asks for %zu "
                "bytes for '%s'",
                replay_next_object - 1, o->name, o->size, nbytes, name);
  if (strcmp(o->name, name) != 0)
    fprintf(stderr,
            "symtest-replay: warning: object %u is named '%s', the program "
            "asks for '%s'\n",
            replay_next_object - 1, o->name, name);
  return o;
}

/* ------------------------------------------------------------------------ */
/* symtest_* */

void symtest_make_symbolic(void *addr, size_t nbytes, const char *name) {
  const struct replay_object *o;
  if (!name)
    name = "unnamed";
  o = next_object(name, nbytes);
  if (nbytes)
    memcpy(addr, o->bytes, nbytes);
}

void symtest_assume(uintptr_t condition) {
  if (!condition)
    replay_fail("assumption failed");
}

int symtest_range(int lo, int hi, const char *name) {
  int r;
  if (lo >= hi) {
    /* The engine reports an empty constant range as a user error. */
    fprintf(stderr, "symtest-replay: user error: invalid range [%d, %d) for '%s'\n",
            lo, hi, name ? name : "unnamed");
    fflush(stderr);
    exit(USER_ERROR_EXIT);
  }
  if (lo + 1 == hi)
    return lo;
  symtest_make_symbolic(&r, sizeof r, name);
  if (r < lo || r >= hi)
    replay_fail("value %d of '%s' is outside its range [%d, %d)", r,
                name ? name : "unnamed", lo, hi);
  return r;
}

int symtest_int(const char *name) {
  int r;
  symtest_make_symbolic(&r, sizeof r, name);
  return r;
}

void symtest_assert(int cond) {
  if (!cond) {
    fputs("symtest-replay: assertion failed\n", stderr);
    fflush(stderr);
    abort();
  }
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
  fprintf(stderr, "symtest-replay: user error: %s:%d: %s\n",
          file ? file : "?", line, message ? message : "");
  if (suffix && *suffix)
    fprintf(stderr, "symtest-replay: error suffix: %s\n", suffix);
  fflush(stderr);
  exit(USER_ERROR_EXIT);
}

void symtest_abort(void) { abort(); }

void symtest_print_expr(const char *msg, ...) {
  fprintf(stderr, "symtest-replay: print_expr: %s\n", msg ? msg : "");
}

void symtest_expect_output(const char *name, const void *value, size_t size) {
  (void)name;
  (void)value;
  (void)size;
}

void symtest_warning(const char *message) {
  fprintf(stderr, "symtest-replay: warning: %s\n", message ? message : "");
}

/* ------------------------------------------------------------------------ */
/* klee_* */

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) {
  symtest_make_symbolic(addr, nbytes, name);
}

int klee_range(int begin, int end, const char *name) {
  return symtest_range(begin, end, name);
}

int klee_int(const char *name) { return symtest_int(name); }

void klee_silent_exit(int status) { exit(status); }

void klee_abort(void) { abort(); }

void klee_report_error(const char *file, int line, const char *message,
                       const char *suffix) {
  symtest_report_error(file, line, message, suffix);
}

void klee_print_expr(const char *msg, ...) {
  fprintf(stderr, "symtest-replay: print_expr: %s\n", msg ? msg : "");
}

unsigned klee_is_symbolic(uintptr_t n) {
  (void)n;
  return 0;
}

void klee_assume(uintptr_t condition) { symtest_assume(condition); }

void klee_warning(const char *message) { symtest_warning(message); }

void klee_warning_once(const char *message) {
  /* Remember the messages already printed (by content); a bounded table is
   * enough for replay, further messages are printed every time. */
  static const char *seen[64];
  static unsigned nseen;
  unsigned i;
  if (!message)
    message = "";
  for (i = 0; i < nseen; i++)
    if (seen[i] == message || strcmp(seen[i], message) == 0)
      return;
  if (nseen < sizeof seen / sizeof seen[0])
    seen[nseen++] = message;
  symtest_warning(message);
}

void klee_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

float klee_get_valuef(float expr) { return expr; }
double klee_get_valued(double expr) { return expr; }
long klee_get_valuel(long expr) { return expr; }
long long klee_get_valuell(long long expr) { return expr; }
int32_t klee_get_value_i32(int32_t expr) { return expr; }
int64_t klee_get_value_i64(int64_t expr) { return expr; }
uint32_t klee_get_value_u32(uint32_t expr) { return expr; }
uint64_t klee_get_value_u64(uint64_t expr) { return expr; }

/* The rest of KLEE 3's klee.h (and KLEE 2's klee_alias_function). */

void klee_define_fixed_object(void *addr, size_t nbytes) {
  /* Map the pages the object covers, when nothing is there yet, so the
   * program's accesses behave as under the engine. */
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)addr & ~(page - 1);
  uintptr_t hi = ((uintptr_t)addr + nbytes + page - 1) & ~(page - 1);
  void *p = mmap((void *)lo, hi - lo, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | REPLAY_MAP_NOREPLACE, -1, 0);
  if (p == MAP_FAILED && errno == EEXIST)
    return; /* mapped already (another fixed object on the same page) */
  if (p == MAP_FAILED || p != (void *)lo) {
    if (p != MAP_FAILED)
      munmap(p, hi - lo);
    /* Below vm.mmap_min_addr (the page at 0) only a process allowed raw
     * I/O may map: this test cannot be replayed here. */
    fprintf(stderr,
            "symtest-replay: klee_define_fixed_object: cannot map %zu bytes "
            "at %p natively (%s); the test cannot be replayed on this "
            "machine\n",
            nbytes, addr, strerror(errno));
    fflush(stderr);
    exit(REPLAY_MISMATCH_EXIT);
  }
}

/* AddressSanitizer's interface, when the harness is built with it. */
extern int __sanitizer_get_ownership(const volatile void *p)
    __attribute__((weak));
extern size_t __sanitizer_get_allocated_size(const volatile void *p)
    __attribute__((weak));
extern void *__asan_region_is_poisoned(void *beg, size_t size)
    __attribute__((weak));

size_t klee_get_obj_size(void *ptr) {
  if (__sanitizer_get_ownership && __sanitizer_get_allocated_size &&
      __sanitizer_get_ownership(ptr))
    return __sanitizer_get_allocated_size(ptr);
  if (__asan_region_is_poisoned) {
    /* Globals and stack objects: up to the redzone after them. */
    char *end = (char *)__asan_region_is_poisoned(ptr, (size_t)1 << 30);
    if (end)
      return (size_t)(end - (char *)ptr);
  }
  fputs("symtest-replay: klee_get_obj_size needs a build with "
        "AddressSanitizer\n",
        stderr);
  fflush(stderr);
  exit(REPLAY_MISMATCH_EXIT);
}

uintptr_t klee_choose(uintptr_t n) {
  uintptr_t x;
  symtest_make_symbolic(&x, sizeof x, "klee_choose");
  if (x >= n)
    exit(0);
  return x;
}

void klee_assert_fail(const char *expr, const char *file, unsigned line,
                      const char *function) {
  fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file ? file : "?",
          line, function ? function : "?", expr ? expr : "");
  fflush(stderr);
  abort();
}

unsigned klee_is_replay(void) { return 1; }

void klee_posix_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

void klee_mark_global(void *object) { (void)object; }

/* Natively by address (the engine also by provenance, see the harness). */
unsigned symtest_points_into(const void *p, const void *base, unsigned long size) {
  return (uintptr_t)p - (uintptr_t)base <= size;
}

void klee_check_memory_access(const void *address, size_t size) {
  const volatile unsigned char *p = (const volatile unsigned char *)address;
  size_t i;
  for (i = 0; i < size; i++)
    (void)p[i];
}

void klee_set_forking(unsigned enable) { (void)enable; }

void klee_stack_trace(void) {
  fputs("symtest-replay: klee_stack_trace (no stack trace natively)\n",
        stderr);
}

void klee_print_range(const char *name, int arg) {
  fprintf(stderr, "symtest-replay: print_range: %s: %d\n", name ? name : "",
          arg);
}

void klee_open_merge(void) {}
void klee_close_merge(void) {}

int klee_get_errno(void) { return errno; }

void klee_alias_function(const char *fn_name, const char *new_fn_name) {
  fprintf(stderr,
          "symtest-replay: warning: klee_alias_function(%s, %s): calls are "
          "not redirected natively\n",
          fn_name ? fn_name : "", new_fn_name ? new_fn_name : "");
}
