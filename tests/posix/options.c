/* Option seeds: the options come from getopt_long's tables. `--zebra-mode`
 * (written `--z`, its unique prefix, in a 10-byte argument), `--width 1` and
 * `--m=slow` (a value of the list gnulib's XARGMATCH checks `--mode`
 * against) each lead to their own exit code, and so do the pair `-v -w 1`
 * (seeded as `-vw 1`) and a negative width (`-w -1`). The short options sit in a local variable, as
 * coreutils' digest.c keeps them. */
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct option longopts[] = {
	{ "verbose", no_argument, 0, 'v' },
	{ "width", required_argument, 0, 'w' },
	{ "zebra-mode", no_argument, 0, 'Z' },
	{ "mode", required_argument, 0, 'M' },
	{ 0, 0, 0, 0 },
};

static const char *const mode_args[] = { "fast", "slow", 0 };
static const int mode_types[] = { 1, 2 };

/* What gnulib's XARGMATCH (argmatch.h) expands to a call of. */
ptrdiff_t __xargmatch_internal(const char *context, const char *arg,
			       const char *const *arglist, const void *vallist,
			       size_t valsize, void (*exit_fn)(void), bool abbreviate)
{
	(void)context, (void)vallist, (void)valsize, (void)exit_fn, (void)abbreviate;
	for (ptrdiff_t i = 0; arglist[i]; i++)
		if (strcmp(arg, arglist[i]) == 0)
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	int c, width = 0, zebra = 0, verbose = 0, mode = 0;
	ptrdiff_t k;
	const char *short_opts = "vw:";
	while ((c = getopt_long(argc, argv, short_opts, longopts, 0)) != -1) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'w':
			width = atoi(optarg);
			break;
		case 'Z':
			zebra = 1;
			break;
		case 'M':
			k = __xargmatch_internal("--mode", optarg, mode_args, mode_types,
						 sizeof *mode_types, 0, true);
			if (k < 0)
				return 3;
			mode = mode_types[k];
			break;
		default:
			return 2;
		}
	}
	if (zebra) {
		puts("zebra");
		return 10;
	}
	if (verbose && width == 1)
		return 14;
	if (width == 1)
		return 11;
	if (width == -1)
		return 15;
	if (mode == 2)
		return 13;
	if (verbose)
		return 12;
	return 0;
}
