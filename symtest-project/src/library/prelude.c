#include "symtest.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A new object of `size` symbolic bytes. */
/* The objects made as inputs, to tell a returned pointer into them. */
static struct { const char *base; size_t size; const char *name; } symtest_lib_inputs[4096];
static unsigned symtest_lib_n_inputs;

static void *symtest_lib_alloc(size_t size, const char *name) {
  void *p = malloc(size ? size : 1);
  if (!p)
    abort();
  symtest_make_symbolic(p, size ? size : 1, name);
  if (symtest_lib_n_inputs < 4096) {
    symtest_lib_inputs[symtest_lib_n_inputs].base = (const char *)p;
    symtest_lib_inputs[symtest_lib_n_inputs].size = size ? size : 1;
    symtest_lib_inputs[symtest_lib_n_inputs].name = name;
    symtest_lib_n_inputs++;
  }
  return p;
}

/* A NUL-terminated string of up to `n` symbolic bytes. */
static char *symtest_lib_string(size_t n, const char *name) {
  char *s = (char *)symtest_lib_alloc(n + 1, name);
  s[n] = 0;
  return s;
}

/* `p` or NULL, by a symbolic choice that is not a branch. */
static void *symtest_lib_nullable(void *p, const char *name) {
  unsigned char b;
  symtest_make_symbolic(&b, 1, name);
  symtest_assume(b <= 1);
  return (void *)((uintptr_t)p * (uintptr_t)b);
}

static char symtest_lib_name_buf[8][512];
static unsigned symtest_lib_name_next;
/* "prefix" + "suffix", in one of a few rotating buffers. */
static const char *symtest_lib_name(const char *prefix, const char *suffix) {
  char *b = symtest_lib_name_buf[symtest_lib_name_next++ % 8];
  snprintf(b, 512, "%s%s", prefix, suffix);
  return b;
}

static void symtest_lib_out(const char *name, const void *p, size_t n) {
  symtest_expect_output(name, p, n);
}

/* A floating-point result, to 6 significant digits (a tolerance). */
static void symtest_lib_out_float(const char *name, long double v) {
  char b[64];
  int n = snprintf(b, sizeof b, "%.6Lg", v);
  symtest_expect_output(name, b, (size_t)n);
}

static void symtest_lib_out_null(const char *name, const void *p) {
  unsigned char is_null = p == NULL;
  symtest_expect_output(name, &is_null, 1);
}

/* A pointer the call returned: NULL, a place in an input object or just past
 * its end (its name and offset: addresses differ from run to run), or new
 * memory. Returns 1 when it is NULL or into an input (nothing more to read
 * through it). Into an input by address, as natively; in the engine a pointer
 * computed from another object is into none (symtest_points_into), since
 * where it lands depends on the heap's layout. */
unsigned symtest_points_into(const void *p, const void *base, unsigned long size);
static int symtest_lib_out_pointer(const char *name, const void *p) {
  char b[600];
  int n;
  unsigned i;
  if (!p) {
    symtest_expect_output(name, "NULL", 4);
    return 1;
  }
  for (i = 0; i < symtest_lib_n_inputs; i++) {
    const char *c = (const char *)p;
    if (symtest_points_into(c, symtest_lib_inputs[i].base, symtest_lib_inputs[i].size)) {
      n = snprintf(b, sizeof b, "into %s at offset %lu", symtest_lib_inputs[i].name,
                   (unsigned long)(c - symtest_lib_inputs[i].base));
      symtest_expect_output(name, b, (size_t)n);
      return 1;
    }
  }
  symtest_expect_output(name, "new", 3);
  return 0;
}

void klee_check_memory_access(const void *address, size_t size);
/* The `n` bytes a returned pointer that is not into an input points to,
 * before the oracle reads them: a pointer to no object (computed past the
 * end of an input) is the call's result, reported here, not read. */
static void symtest_lib_returned(const void *p, size_t n) {
  klee_check_memory_access(p, n);
}

static void symtest_lib_out_string(const char *name, const char *s) {
  if (s)
    symtest_expect_output(name, s, strlen(s));
  else
    symtest_lib_out_null(name, s);
}

/* A pointer into the array of `n` elements of `size` bytes at `base`, at a
 * symbolic element from its first to one past its last (NULL where `base`
 * is): a field that the library subtracts from or orders against the one
 * holding `base`, which C defines only within one array. */
static void *symtest_lib_range(void *base, size_t n, size_t size, const char *name) {
  unsigned char k;
  symtest_make_symbolic(&k, 1, name);
  symtest_assume(k <= n);
  /* No branch on `base`: NULL stays NULL (plus 0). */
  symtest_assume((base != NULL) | (k == 0));
  return (char *)base + (size_t)k * size;
}
