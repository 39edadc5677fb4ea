/*
 * symtest_api.c - the symtest.h / klee.h functions of an emitted regression
 * suite, replayed from the test vectors (symtest_tests.c): each call that
 * creates a symbolic value takes the next object of the test running
 * (symtest_current, set by symtest_runner.c), checked against the name and
 * size the code asks for; the engine-only functions (forking, queries on
 * expressions, merging) do what a single concrete path needs.
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */

#include "symtest.h"
#include "klee/klee.h"
#include "symtest_tests.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A test of a path the engine stopped before its end (SYMTEST_EXPECT_STOPPED),
 * or ran concretely for its whole allowance without seeing it end
 * (SYMTEST_EXPECT_NO_END: a callback whose every call makes new input, a
 * loop that reads input until it ends), may lack the input the path makes
 * after that point: past its last object, the run takes zeros, and an input
 * that does not fit (an assumption, a range) ends it with exit 0 — the
 * engine claims nothing of that part. */
static int symtest_padding;

void symtest_mismatch(const char *fmt, const char *name, unsigned long n) {
  if (symtest_padding) {
    fprintf(stderr, "symtest: past the input the engine made for this path before it stopped: ");
    fprintf(stderr, fmt, name ? name : "unnamed", n);
    fputc('\n', stderr);
    exit(0);
  }
  fprintf(stderr, "symtest: test vector mismatch: ");
  fprintf(stderr, fmt, name ? name : "unnamed", n);
  fputc('\n', stderr);
  exit(SYMTEST_MISMATCH_EXIT);
}

static const struct symtest_object *take(const char *name, size_t nbytes) {
  const struct symtest_object *o;
  if (symtest_next_object >= symtest_current->num_objects &&
      (symtest_current->expect == SYMTEST_EXPECT_STOPPED || symtest_current->expect == SYMTEST_EXPECT_NO_END)) {
    static struct symtest_object zero;
    symtest_padding = 1;
    zero.name = name;
    zero.size = (unsigned)nbytes;
    zero.bytes = (const unsigned char *)calloc(nbytes ? nbytes : 1, 1);
    if (!zero.bytes)
      abort();
    return &zero;
  }
  /* As KLEE's replay library: the POSIX runtime's "model_version" object is
   * skipped unless it is what the program asks for. */
  while (symtest_next_object < symtest_current->num_objects &&
         strcmp(symtest_current->objects[symtest_next_object].name, "model_version") == 0 &&
         (!name || strcmp(name, "model_version") != 0))
    symtest_next_object++;
  if (symtest_next_object >= symtest_current->num_objects)
    symtest_mismatch("no object left for '%s' (%lu bytes)", name, nbytes);
  o = &symtest_current->objects[symtest_next_object++];
  if (o->size != nbytes)
    symtest_mismatch("object '%s' has another size than the %lu bytes asked for", name, nbytes);
  return o;
}

void symtest_make_symbolic(void *addr, size_t nbytes, const char *name) {
  const struct symtest_object *o = take(name, nbytes);
  if (nbytes)
    memcpy(addr, o->bytes, nbytes);
}
void symtest_assume(uintptr_t condition) {
  if (!condition)
    symtest_mismatch("assumption '%s' failed (%lu)", "", 0);
}
int symtest_range(int lo, int hi, const char *name) {
  int r;
  if (lo >= hi) {
    fprintf(stderr, "symtest: user error: invalid range [%d, %d) for '%s'\n", lo, hi, name);
    exit(SYMTEST_USER_ERROR_EXIT);
  }
  if (lo + 1 == hi)
    return lo;
  symtest_make_symbolic(&r, sizeof r, name);
  if (r < lo || r >= hi)
    symtest_mismatch("value of '%s' outside its range (%lu)", name, 0);
  return r;
}
int symtest_int(const char *name) {
  int r;
  symtest_make_symbolic(&r, sizeof r, name);
  return r;
}
void symtest_assert(int cond) {
  if (!cond) {
    fputs("symtest: assertion failed\n", stderr);
    abort();
  }
}
void symtest_prefer_cex(void *obj, uintptr_t cond) { (void)obj; (void)cond; }
unsigned symtest_is_symbolic(uintptr_t n) { (void)n; return 0; }
int32_t symtest_get_value_i32(int32_t x) { return x; }
int64_t symtest_get_value_i64(int64_t x) { return x; }
uint32_t symtest_get_value_u32(uint32_t x) { return x; }
uint64_t symtest_get_value_u64(uint64_t x) { return x; }
void *symtest_get_value_ptr(void *x) { return x; }
void symtest_silent_exit(int status) { exit(status); }
void symtest_report_error(const char *file, int line, const char *message, const char *suffix) {
  (void)suffix;
  fprintf(stderr, "symtest: user error: %s:%d: %s\n", file, line, message);
  exit(SYMTEST_USER_ERROR_EXIT);
}
void symtest_abort(void) { abort(); }
void symtest_print_expr(const char *msg, ...) { fprintf(stderr, "%s\n", msg); }
void symtest_warning(const char *message) { fprintf(stderr, "symtest: warning: %s\n", message); }

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) { symtest_make_symbolic(addr, nbytes, name); }
int klee_range(int begin, int end, const char *name) { return symtest_range(begin, end, name); }
int klee_int(const char *name) { return symtest_int(name); }
void klee_silent_exit(int status) { exit(status); }
void klee_abort(void) { abort(); }
void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  symtest_report_error(file, line, message, suffix);
}
void klee_print_expr(const char *msg, ...) { fprintf(stderr, "%s\n", msg); }
unsigned klee_is_symbolic(uintptr_t n) { (void)n; return 0; }
void klee_assume(uintptr_t condition) { symtest_assume(condition); }
void klee_warning(const char *message) { symtest_warning(message); }
void klee_warning_once(const char *message) { symtest_warning(message); }
void klee_prefer_cex(void *object, uintptr_t condition) { (void)object; (void)condition; }
float klee_get_valuef(float expr) { return expr; }
double klee_get_valued(double expr) { return expr; }
long klee_get_valuel(long expr) { return expr; }
long long klee_get_valuell(long long expr) { return expr; }
int32_t klee_get_value_i32(int32_t expr) { return expr; }
int64_t klee_get_value_i64(int64_t expr) { return expr; }
uint32_t klee_get_value_u32(uint32_t expr) { return expr; }
uint64_t klee_get_value_u64(uint64_t expr) { return expr; }
void klee_define_fixed_object(void *addr, size_t nbytes) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)addr & ~(page - 1);
  uintptr_t hi = ((uintptr_t)addr + nbytes + page - 1) & ~(page - 1);
#ifdef MAP_FIXED_NOREPLACE
  int noreplace = MAP_FIXED_NOREPLACE;
#else
  int noreplace = 0x100000;
#endif
  void *p = mmap((void *)lo, hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | noreplace,
                 -1, 0);
  if (p == MAP_FAILED && errno == EEXIST)
    return; /* mapped already (another fixed object on the same page) */
  if (p != (void *)lo) {
    if (p != MAP_FAILED)
      munmap(p, hi - lo);
    /* Below vm.mmap_min_addr (the page at 0) only a process allowed raw I/O may map. */
    symtest_mismatch("klee_define_fixed_object%s: cannot map its %lu bytes at their address natively", "",
             nbytes);
  }
}
extern int __sanitizer_get_ownership(const volatile void *p) __attribute__((weak));
extern size_t __sanitizer_get_allocated_size(const volatile void *p) __attribute__((weak));
extern void *__asan_region_is_poisoned(void *beg, size_t size) __attribute__((weak));
size_t klee_get_obj_size(void *ptr) {
  char *end;
  if (__sanitizer_get_ownership && __sanitizer_get_allocated_size && __sanitizer_get_ownership(ptr))
    return __sanitizer_get_allocated_size(ptr);
  if (__asan_region_is_poisoned && (end = (char *)__asan_region_is_poisoned(ptr, (size_t)1 << 30)))
    return (size_t)(end - (char *)ptr);
  symtest_mismatch("klee_get_obj_size needs a build with AddressSanitizer%s (%lu)", "", 0);
  return 0;
}
uintptr_t klee_choose(uintptr_t n) {
  uintptr_t x;
  symtest_make_symbolic(&x, sizeof x, "klee_choose");
  if (x >= n)
    exit(0);
  return x;
}
void klee_assert_fail(const char *expr, const char *file, unsigned line, const char *function) {
  fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
  abort();
}
unsigned klee_is_replay(void) { return 1; }
void klee_posix_prefer_cex(void *object, uintptr_t condition) { (void)object; (void)condition; }
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
void klee_stack_trace(void) {}
void klee_print_range(const char *name, int arg) { fprintf(stderr, "%s: %d\n", name, arg); }
void klee_open_merge(void) {}
void klee_close_merge(void) {}
int klee_get_errno(void) { return errno; }
void klee_alias_function(const char *fn_name, const char *new_fn_name) {
  fprintf(stderr, "symtest: warning: klee_alias_function(%s, %s): calls are not redirected natively\n",
          fn_name, new_fn_name);
}
