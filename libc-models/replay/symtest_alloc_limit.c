/*
 * symtest_alloc_limit.c - the engine's allocation limit in a native build
 * without AddressSanitizer (`cargo symtest cc --native`; an emitted suite
 * built against musl, or with symtest.cmake's SYMTEST_SANITIZE=OFF).
 *
 * The engine refuses a single allocation above `exec --max-alloc-size`
 * (1 GiB unless given; larger requests return NULL) on every machine.  A
 * sanitizer build refuses the same ones through AddressSanitizer's
 * `max_allocation_size_mb`; this file does it for a build without it: the
 * link wraps (`-Wl,--wrap=malloc,...`) the calls below, which fail with
 * ENOMEM above the limit and otherwise call the C library's.  So a program
 * asking for 2 GiB sees NULL natively too, on any machine, instead of
 * getting (and zeroing) memory the engine never granted.
 *
 * SYMTEST_MAX_ALLOC_SIZE=BYTES (set by `cargo symtest replay --native` when
 * the run's --max-alloc-size was not the default) replaces the limit.
 * Calls the C library makes internally (strdup's malloc in musl) are not
 * wrapped.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

/* The engine's default (DEFAULT_MAX_ALLOC_SIZE). */
#define SYMTEST_DEFAULT_MAX_ALLOC (1UL << 30)

void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **res, size_t align, size_t n);
void *__real_memalign(size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t m, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_reallocarray(void *p, size_t m, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
int __wrap_posix_memalign(void **res, size_t align, size_t n);
void *__wrap_memalign(size_t align, size_t n);

static size_t max_alloc(void) {
  static size_t limit;
  if (!limit) {
    const char *v = getenv("SYMTEST_MAX_ALLOC_SIZE");
    size_t n = 0;
    for (; v && *v >= '0' && *v <= '9'; v++)
      n = n * 10 + (size_t)(*v - '0');
    limit = n ? n : SYMTEST_DEFAULT_MAX_ALLOC;
  }
  return limit;
}

/* Is `n` above the limit (errno ENOMEM, as an allocator that cannot grant)? */
static int too_big(size_t n) {
  if (n <= max_alloc())
    return 0;
  errno = ENOMEM;
  return 1;
}

void *__wrap_malloc(size_t n) { return too_big(n) ? NULL : __real_malloc(n); }

void *__wrap_calloc(size_t m, size_t n) {
  if (n && m > (size_t)-1 / n) {
    errno = ENOMEM;
    return NULL;
  }
  return too_big(m * n) ? NULL : __real_calloc(m, n);
}

void *__wrap_realloc(void *p, size_t n) { return too_big(n) ? NULL : __real_realloc(p, n); }

void *__wrap_reallocarray(void *p, size_t m, size_t n) {
  if (n && m > (size_t)-1 / n) {
    errno = ENOMEM;
    return NULL;
  }
  return __wrap_realloc(p, m * n);
}

void *__wrap_aligned_alloc(size_t align, size_t n) {
  return too_big(n) ? NULL : __real_aligned_alloc(align, n);
}

int __wrap_posix_memalign(void **res, size_t align, size_t n) {
  return n > max_alloc() ? ENOMEM : __real_posix_memalign(res, align, n);
}

void *__wrap_memalign(size_t align, size_t n) {
  return too_big(n) ? NULL : __real_memalign(align, n);
}
