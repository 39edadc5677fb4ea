/* symtest POSIX model: glibc's header-level renames, so that programs compiled
 * against the system (glibc) headers also link with musl: C99 scanf (glibc's
 * headers call __isoc99_*) and the _FORTIFY_SOURCE printf family (checks
 * dropped; the engine checks every access anyway), and the functions glibc has
 * that musl 1.2.3 does not (arc4random). */
#include <stdarg.h>
#include <stdio.h>

int __isoc99_sscanf(const char *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsscanf(s, fmt, ap);
	va_end(ap);
	return r;
}

int __isoc99_fscanf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfscanf(f, fmt, ap);
	va_end(ap);
	return r;
}

int __isoc99_scanf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfscanf(stdin, fmt, ap);
	va_end(ap);
	return r;
}

int __isoc99_vsscanf(const char *s, const char *fmt, va_list ap)
{
	return vsscanf(s, fmt, ap);
}

int __isoc99_vfscanf(FILE *f, const char *fmt, va_list ap)
{
	return vfscanf(f, fmt, ap);
}

int __printf_chk(int flag, const char *fmt, ...)
{
	(void)flag;
	va_list ap;
	va_start(ap, fmt);
	int r = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return r;
}

int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	(void)flag;
	va_list ap;
	va_start(ap, fmt);
	int r = vfprintf(f, fmt, ap);
	va_end(ap);
	return r;
}

int __sprintf_chk(char *s, int flag, size_t len, const char *fmt, ...)
{
	(void)flag;
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(s, len, fmt, ap);
	va_end(ap);
	return r;
}

int __snprintf_chk(char *s, size_t n, int flag, size_t len, const char *fmt, ...)
{
	(void)flag;
	(void)len;
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(s, n, fmt, ap);
	va_end(ap);
	return r;
}

int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	return vfprintf(f, fmt, ap);
}

/* glibc 2.36's arc4random family, which musl 1.2.3 lacks: a program
 * configured against glibc calls it (jq seeds its hashes with it). The bytes
 * come from getrandom, deterministic in the model. */
#include <stdint.h>
#include <sys/random.h>

void arc4random_buf(void *buf, size_t n)
{
	char *p = buf;
	while (n > 0) {
		ssize_t r = getrandom(p, n, 0);
		if (r <= 0)
			break;
		p += r;
		n -= (size_t)r;
	}
}

uint32_t arc4random(void)
{
	uint32_t x = 0;
	arc4random_buf(&x, sizeof x);
	return x;
}

uint32_t arc4random_uniform(uint32_t upper)
{
	return upper < 2 ? 0 : arc4random() % upper;
}
