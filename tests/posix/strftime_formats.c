/* strftime with a one-conversion format "%<c>" for every byte c, as a date
 * program builds it from its argument (toybox's `date +%:` printed "%:"
 * natively and failed with "bad format" in the engine: musl, the engine's C
 * library, returns 0 for a conversion it does not know, glibc copies it).
 * Under glibc's rules the model's strftime copies unknown conversions,
 * knows glibc's extensions (%k, %l, %P) and pads as glibc does, so every
 * path's output replays natively.
 *
 * stdin: the conversion character. %s (seconds since the epoch in the
 * local time zone) is left out: it depends on the host's time zone. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 's')
		return 8;
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = 123;
	tm.tm_mon = 10;
	tm.tm_mday = 5;
	tm.tm_hour = 17;
	tm.tm_min = 3;
	tm.tm_sec = 9;
	tm.tm_yday = 308;
	tm.tm_zone = "UTC";
	char fmt[4] = { '%', c, 0, 0 };
	char out[64];
	size_t n = strftime(out, sizeof out, fmt, &tm);
	if (n == 0) {
		printf("bad format\n");
		return 1;
	}
	printf("[%s] %zu\n", out, n);
	return 0;
}
