/* musl under the POSIX model, concretely: each libc area the utilities use
 * returns a distinct code when it misbehaves; 0 when all agree with C. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%5.2f|%g|%e|%x|%-3s|", 3.14159, -2.5, 1e10, 255, "a");
	if (strcmp(buf, " 3.14|-2.5|1.000000e+10|ff|a  |") != 0)
		return 10;
	int a, b;
	if (sscanf("12 34", "%d %d", &a, &b) != 2 || a + b != 46)
		return 11;
	char *d = strdup("x,y,z");
	int n = 0;
	for (char *t = strtok(d, ","); t; t = strtok(0, ","))
		n++;
	free(d);
	if (n != 3)
		return 12;
	FILE *f = fopen("newfile", "w");
	if (!f)
		return 13;
	fputs("line1\nline2\n", f);
	fclose(f);
	f = fopen("newfile", "r");
	if (!f)
		return 14;
	int lines = 0;
	while (fgets(buf, sizeof buf, f))
		lines++;
	fclose(f);
	if (lines != 2)
		return 15;
	/* Host files: readable, never writable. */
	f = fopen("/etc/passwd", "r");
	if (!f || fgetc(f) == EOF)
		return 16;
	fclose(f);
	if (fopen("/etc/passwd", "w") != 0 || errno != EACCES)
		return 17;
	if (fopen("/nonexistent/file", "r") != 0 || errno != ENOENT)
		return 18;
	time_t t = time(0);
	struct tm *tm = gmtime(&t);
	if (!tm || tm->tm_year != 123)
		return 19;
	static struct option lo[] = { { "verbose", no_argument, 0, 'v' }, { 0, 0, 0, 0 } };
	char *av[] = { "p", "--verbose", "-v", 0 };
	int v = 0, c;
	while ((c = getopt_long(3, av, "v", lo, 0)) != -1)
		if (c == 'v')
			v++;
	if (v != 2)
		return 20;
	if (atoi("42") != 42 || !isalpha('q') || toupper('a') != 'A')
		return 21;
	if (!getcwd(buf, sizeof buf))
		return 22;
	if (strtod("-2.5", 0) != -2.5 || strtol("-0x1f", 0, 16) != -31)
		return 23;
	char *words[] = { "pear", "apple", "fig" };
	qsort(words, 3, sizeof words[0], cmp);
	if (strcmp(words[0], "apple") || strcmp(words[2], "pear"))
		return 24;
	int p[2];
	if (pipe(p) != 0 || write(p[1], "ab", 2) != 2 || read(p[0], buf, 8) != 2)
		return 25;
	if (isatty(1))
		return 26;
	fprintf(stderr, "stderr works\n");
	return 0;
}
