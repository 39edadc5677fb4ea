/* symtest: musl's atoi, or under glibc's rules (symtest_glibc.h) glibc's
 * (int)strtol(s, 0, 10): the two agree unless the digits overflow, where musl
 * wraps around and glibc saturates (and sets errno to ERANGE). */
#include <stdlib.h>
#include <ctype.h>
#include "../internal/symtest_glibc.h"

int atoi(const char *s)
{
	if (__symtest_glibc)
		return (int)strtol(s, 0, 10);
	int n=0;
	int neg=0;
	while (isspace(*s)) s++;
	switch (*s) {
	case '-': neg=1;
	case '+': s++;
	}
	/* Compute n as a negative number to avoid overflow on INT_MIN */
	while (isdigit(*s))
		n = 10*n - (*s++ - '0');
	return neg ? n : -n;
}
