/* Number parsing where musl and glibc disagree: a subject sequence without
 * digits sets errno to EINVAL in musl's strtol, strtod and sscanf, never in
 * glibc's; atoi of a number past a long's range wraps around in musl and
 * saturates in glibc (strtol's value, errno ERANGE). The engine runs musl's
 * code, and must answer as the libc the test is replayed with: glibc's for
 * this program (exits 9 and 1), musl's with --max-fail (exits 10 and 13). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	const char *s = argv[1];
	char *end;

	errno = 0;
	long v = strtol(s, &end, 0);
	if (errno == EINVAL) {
		puts("strtol: EINVAL");
		return 10;
	}
	errno = 0;
	double d = strtod(s, 0);
	if (errno == EINVAL) {
		puts("strtod: EINVAL");
		return 11;
	}
	int n = 0;
	errno = 0;
	int matched = sscanf(s, "%d", &n);
	if (errno == EINVAL) {
		puts("sscanf: EINVAL");
		return 12;
	}
	errno = 0;
	(void)wcstol(L"-", 0, 10);
	if (errno == EINVAL) {
		puts("wcstol: EINVAL");
		return 13;
	}

	errno = 0;
	int big = atoi("99999999999999999999");
	int saturated = big == -1 && errno == ERANGE;
	printf("%ld %g %d %d %d\n", v, d, matched, n, big);
	if (end == s)
		return saturated ? 9 : 8;
	return saturated ? 1 : 0;
}
