/*
 * symtest_musl_compat.c - the glibc entry points clang's profile runtime
 * (libclang_rt.profile, built against glibc) calls, for a coverage build of
 * the suite against musl (`make SYMTEST_COVERAGE=1` with LIBC=musl).
 */
#include <stdarg.h>
#include <stdio.h>
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  va_list ap;
  int r;
  (void)flag;
  va_start(ap, fmt);
  r = vfprintf(f, fmt, ap);
  va_end(ap);
  return r;
}
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vfprintf(f, fmt, ap);
}
int __snprintf_chk(char *s, size_t n, int flag, size_t len, const char *fmt, ...);
int __snprintf_chk(char *s, size_t n, int flag, size_t len, const char *fmt, ...) {
  va_list ap;
  int r;
  (void)flag;
  (void)len;
  va_start(ap, fmt);
  r = vsnprintf(s, n, fmt, ap);
  va_end(ap);
  return r;
}
int __vsnprintf_chk(char *s, size_t n, int flag, size_t len, const char *fmt, va_list ap);
int __vsnprintf_chk(char *s, size_t n, int flag, size_t len, const char *fmt, va_list ap) {
  (void)flag;
  (void)len;
  return vsnprintf(s, n, fmt, ap);
}
