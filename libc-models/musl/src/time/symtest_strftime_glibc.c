/* symtest: strftime under glibc's rules (symtest_glibc.h), for the C locale
 * the model runs in. musl and glibc disagree on formats a program can
 * build: musl fails (returns 0) on a conversion it does not know and on a
 * '%' ending the format, where glibc copies the conversion as written
 * ("%:" stays "%:", a date program printed it natively and failed in the
 * engine with "bad format"); glibc also knows %k, %l, %P, the '^' and '#'
 * flags and a width on every conversion, and rejects E and O where they do
 * not apply. This follows glibc 2.36's __strftime_internal (time/strftime_l.c)
 * for the C locale: the same flags, width, modifiers, padding and size
 * checks, conversion by conversion. */
#define _GNU_SOURCE
#include <ctype.h>
#include <langinfo.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

struct out {
	char *p;	/* where the next byte goes (NULL: count only) */
	size_t max;	/* the buffer's size */
	size_t i;	/* bytes produced so far */
};

struct spec {
	int pad;	/* '_', '-', '0' or 0 */
	int width;	/* -1: none */
	int upcase;
	int lowcase;
};

/* glibc's add(): `n` bytes of `s` (NULL: spaces are not wanted, only
 * padding) padded on the left to the width; 0 when they do not fit. */
static int put(struct out *o, const struct spec *sp, const char *s, size_t n)
{
	long delta = (long)sp->width - (long)n;
	size_t incr = n + (delta > 0 ? (size_t)delta : 0);
	if (incr >= o->max - o->i)
		return 0;
	if (o->p) {
		for (long k = 0; k < delta; k++)
			*o->p++ = sp->pad == '0' ? '0' : ' ';
		for (size_t k = 0; k < n; k++) {
			int c = (unsigned char)s[k];
			if (sp->lowcase)
				c = tolower(c);
			else if (sp->upcase)
				c = toupper(c);
			*o->p++ = (char)c;
		}
	}
	o->i += incr;
	return 1;
}

/* glibc's do_number (and do_number_sign_and_padding): at least `digits`
 * digits (the width, if wider; -n: n digits, the width left to the padding
 * of the whole text, as for %s), zero-padded unless the pad is '_' (spaces)
 * or '-' (none). */
static int number(struct out *o, struct spec *sp, int digits, long long v, int spacepad)
{
	char buf[32];
	char *b = buf + sizeof buf;
	int neg = v < 0;
	unsigned long long u = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	if (spacepad && sp->pad != '0' && sp->pad != '-')
		sp->pad = '_';
	if (digits < 0)
		digits = -digits;
	else if (digits < sp->width)
		digits = sp->width;
	do
		*--b = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (neg)
		*--b = '-';
	if (sp->pad != '-') {
		int padding = digits - (int)(buf + sizeof buf - b);
		if (padding > 0) {
			if (sp->pad == '_') {
				if ((size_t)padding >= o->max - o->i)
					return 0;
				for (int k = 0; k < padding; k++)
					if (o->p)
						*o->p++ = ' ';
				o->i += padding;
				sp->width = sp->width > padding ? sp->width - padding : 0;
			} else {
				if ((size_t)digits >= o->max - o->i)
					return 0;
				if (neg) {
					b++;
					if (o->p)
						*o->p++ = '-';
					o->i++;
				}
				for (int k = 0; k < padding; k++)
					if (o->p)
						*o->p++ = '0';
				o->i += padding;
				sp->width = 0;
			}
		}
	}
	return put(o, sp, b, (size_t)(buf + sizeof buf - b));
}

static size_t format(char *s, size_t max, const char *f, const struct tm *tm);

/* A format within the format (%c, %D, %r…): its text padded to the width
 * as one piece, then uppercased, padding included, under '^'. */
static int sub(struct out *o, const struct spec *sp, const char *fmt, const struct tm *tm)
{
	size_t len = format(NULL, (size_t)-1, fmt, tm);
	long delta = (long)sp->width - (long)len;
	size_t pad = delta > 0 ? (size_t)delta : 0;
	if (len + pad >= o->max - o->i)
		return 0;
	if (o->p) {
		char *start = o->p;
		for (size_t k = 0; k < pad; k++)
			*o->p++ = sp->pad == '0' ? '0' : ' ';
		format(o->p, o->max - o->i - pad, fmt, tm);
		o->p += len;
		if (sp->upcase)
			for (char *c = start; c < o->p; c++)
				*c = (char)toupper((unsigned char)*c);
	}
	o->i += len + pad;
	return 1;
}

/* ISO 8601 week days (glibc's iso_week_days). */
static int iso_week_days(int yday, int wday)
{
	int big_enough_multiple_of_7 = (366 / 7 + 2) * 7;
	return yday - (yday - wday + 4 + big_enough_multiple_of_7) % 7 + 3;
}

static int is_leap(long long y)
{
	return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static const char *name(int item, int i, int n)
{
	return i < 0 || i >= n ? "?" : nl_langinfo(item + i);
}

/* The numeric conversions; -1 where `c` is none of them. */
static int numeric(struct out *o, struct spec *sp, int c, int mod, const struct tm *tm)
{
	int hour12 = tm->tm_hour > 12 ? tm->tm_hour - 12 : tm->tm_hour == 0 ? 12 : tm->tm_hour;
	long long year = (long long)tm->tm_year + 1900;
	if (mod == 'E' && strchr("deHIkljMmSUWwVgG", c))
		return -2;
	switch (c) {
	case 'C': return number(o, sp, 1, year / 100 - (year % 100 < 0), 0);
	case 'd': return number(o, sp, 2, tm->tm_mday, 0);
	case 'e': return number(o, sp, 2, tm->tm_mday, 1);
	case 'H': return number(o, sp, 2, tm->tm_hour, 0);
	case 'I': return number(o, sp, 2, hour12, 0);
	case 'k': return number(o, sp, 2, tm->tm_hour, 1);
	case 'l': return number(o, sp, 2, hour12, 1);
	case 'j': return number(o, sp, 3, 1LL + tm->tm_yday, 0);
	case 'M': return number(o, sp, 2, tm->tm_min, 0);
	case 'm': return number(o, sp, 2, tm->tm_mon + 1LL, 0);
	case 'S': return number(o, sp, 2, tm->tm_sec, 0);
	case 'u': return number(o, sp, 1, (tm->tm_wday - 1 + 7) % 7 + 1, 0);
	case 'U': return number(o, sp, 2, (tm->tm_yday - tm->tm_wday + 7) / 7, 0);
	case 'W': return number(o, sp, 2, (tm->tm_yday - (tm->tm_wday - 1 + 7) % 7 + 7) / 7, 0);
	case 'w': return number(o, sp, 1, tm->tm_wday, 0);
	case 'y': return number(o, sp, 2, (year % 100 + 100) % 100, 0);
	case 'Y':
		if (mod == 'O')
			return -2;
		return number(o, sp, 1, year, 0);
	case 'V': case 'g': case 'G': {
		int days = iso_week_days(tm->tm_yday, tm->tm_wday);
		if (days < 0) {
			year--;
			days = iso_week_days(tm->tm_yday + (365 + is_leap(year)), tm->tm_wday);
		} else {
			int d = iso_week_days(tm->tm_yday - (365 + is_leap(year)), tm->tm_wday);
			if (d >= 0) {
				year++;
				days = d;
			}
		}
		if (c == 'g')
			return number(o, sp, 2, (year % 100 + 100) % 100, 0);
		if (c == 'G')
			return number(o, sp, 1, year, 0);
		return number(o, sp, 2, days / 7 + 1, 0);
	}
	case 's': {
		struct tm copy = *tm;
		long long t = mktime(&copy);
		return number(o, sp, -1, t, 0);
	}
	case 'z': {
		if (tm->tm_isdst < 0)
			return 1;
		long diff = tm->tm_gmtoff;
		if (!put(o, sp, diff < 0 ? "-" : "+", 1))
			return 0;
		if (diff < 0)
			diff = -diff;
		diff /= 60;
		return number(o, sp, 4, (diff / 60) * 100 + diff % 60, 0);
	}
	}
	return -1;
}

/* One conversion `c` with modifier `mod`: 1 done, 0 no room, -2 a bad format. */
static int conversion(struct out *o, struct spec *sp, int c, int mod, int change_case,
		      const struct tm *tm)
{
	int r = numeric(o, sp, c, mod, tm);
	if (r != -1)
		return r;
	switch (c) {
	case '%':
		return put(o, sp, "%", 1);
	case 'a': case 'A':
		if (mod)
			return -2;
		if (change_case)
			sp->upcase = 1;
		{
			const char *n = name(c == 'a' ? ABDAY_1 : DAY_1, tm->tm_wday, 7);
			return put(o, sp, n, strlen(n));
		}
	case 'b': case 'h': case 'B':
		/* glibc upcases %#b before it rejects %E#b, and %#B after. */
		if (change_case && c != 'B')
			sp->upcase = 1;
		if (mod == 'E')
			return -2;
		if (change_case)
			sp->upcase = 1;
		{
			const char *n = name(c == 'B' ? MON_1 : ABMON_1, tm->tm_mon, 12);
			return put(o, sp, n, strlen(n));
		}
	case 'c': return mod == 'O' ? -2 : sub(o, sp, nl_langinfo(D_T_FMT), tm);
	case 'x': return mod == 'O' ? -2 : sub(o, sp, nl_langinfo(D_FMT), tm);
	case 'X': return mod == 'O' ? -2 : sub(o, sp, nl_langinfo(T_FMT), tm);
	case 'D': return mod ? -2 : sub(o, sp, "%m/%d/%y", tm);
	case 'F': return mod ? -2 : sub(o, sp, "%Y-%m-%d", tm);
	case 'R': return sub(o, sp, "%H:%M", tm);
	case 'T': return sub(o, sp, "%H:%M:%S", tm);
	case 'r': {
		const char *f = nl_langinfo(T_FMT_AMPM);
		return sub(o, sp, *f ? f : "%I:%M:%S %p", tm);
	}
	case 'n': return put(o, sp, "\n", 1);
	case 't': return put(o, sp, "\t", 1);
	case 'P': case 'p': {
		if (c == 'P' || change_case)
			sp->lowcase = 1;
		if (change_case)
			sp->upcase = 0;
		const char *n = nl_langinfo(tm->tm_hour > 11 ? PM_STR : AM_STR);
		return put(o, sp, n, strlen(n));
	}
	case 'Z': {
		if (change_case)
			sp->upcase = 0, sp->lowcase = 1;
		const char *zone = tm->tm_zone;
		if (!(zone && *zone) && tm->tm_isdst >= 0) {
			tzset();
			zone = tm->tm_isdst <= 1 ? tzname[tm->tm_isdst] : "?";
		}
		if (!zone)
			zone = "";
		return put(o, sp, zone, strlen(zone));
	}
	}
	return -2;
}

static size_t format(char *s, size_t max, const char *f, const struct tm *tm)
{
	struct out o = { s, max, 0 };
	for (; *f; f++) {
		struct spec sp = { 0, -1, 0, 0 };
		int change_case = 0;
		if (*f != '%') {
			if (!put(&o, &sp, f, 1))
				return 0;
			continue;
		}
		const char *pct = f;
		for (;;) {
			int c = *++f;
			if (c == '_' || c == '-' || c == '0')
				sp.pad = c;
			else if (c == '^')
				sp.upcase = 1;
			else if (c == '#')
				change_case = 1;
			else
				break;
		}
		if (*f >= '0' && *f <= '9') {
			sp.width = 0;
			do {
				int d = *f - '0';
				sp.width = sp.width > (0x7fffffff - d) / 10 ? 0x7fffffff : sp.width * 10 + d;
			} while (*++f >= '0' && *f <= '9');
		}
		int mod = 0;
		if (*f == 'E' || *f == 'O')
			mod = *f++;
		int r = *f ? conversion(&o, &sp, *f, mod, change_case, tm) : -2;
		if (!*f)
			--f;
		if (r == 0)
			return 0;
		if (r == -2 && !put(&o, &sp, pct, (size_t)(f - pct + 1)))
			return 0;
	}
	if (o.p && max)
		*o.p = 0;
	return o.i;
}

size_t __symtest_strftime_glibc(char *restrict s, size_t n, const char *restrict f,
				const struct tm *restrict tm)
{
	return format(s, n, f, tm);
}
