/* The locale a program gets, as toybox's commands set theirs up: the
 * default from an environment without LANG or LC_*, then en_US.UTF-8 if the
 * default's codeset is not UTF-8. musl's default is C.UTF-8 and it grants
 * any name; glibc's default is C and it grants only the locales compiled on
 * the system, which the model's world has none of (natively the host's are
 * hidden). Under glibc's rules the model answers as glibc: the default is
 * C, its codeset glibc's ANSI_X3.4-1968, en_US.UTF-8 is refused, and a
 * pattern holding a byte that is not UTF-8 compiles in the C locale
 * (toybox's `nl -bp` with such a byte exited 1 in the engine, "bad regex",
 * and natively went on). C.UTF-8, compiled on most hosts, is refused
 * natively too: the host's locales are not the model's.
 *
 * stdin 'l': the locale checks; anything else: exit 0. */
#include <langinfo.h>
#include <locale.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c != 'l')
		return 0;
	const char *name = setlocale(LC_CTYPE, "");
	const char *codeset = nl_langinfo(CODESET);
	int utf8 = !strcmp(codeset, "UTF-8");
	locale_t l = utf8 ? 0 : newlocale(LC_CTYPE_MASK, "en_US.UTF-8", 0);
	if (l)
		uselocale(l);
	regex_t re;
	int bad = regcomp(&re, "a\302", REG_NOSUB);
	locale_t cu = newlocale(LC_CTYPE_MASK, "C.UTF-8", 0);
	printf("default %s (%s), en_US.UTF-8 %s, C.UTF-8 %s, pattern %s\n", name ? name : "(none)",
	       codeset, l ? "granted" : "refused", cu ? "granted" : "refused", bad ? "rejected" : "compiled");
	if (!bad)
		regfree(&re);
	return bad ? 1 : 0;
}
