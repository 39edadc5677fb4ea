/* symtest: replaces musl's setjmp/longjmp (x86_64 assembly). Returning twice is
 * not modelled: setjmp returns 0, and a path that calls longjmp ends with an
 * `exec` error naming the limitation. */
#include <setjmp.h>

void __symtest_unsupported(const char *what);

int setjmp(jmp_buf env)
{
	(void)env;
	return 0;
}

int _setjmp(jmp_buf env)
{
	(void)env;
	return 0;
}

int sigsetjmp(sigjmp_buf env, int savemask)
{
	(void)env;
	(void)savemask;
	return 0;
}

_Noreturn void longjmp(jmp_buf env, int val)
{
	(void)env;
	(void)val;
	__symtest_unsupported("longjmp is not modelled (setjmp returns only once)");
	for (;;) {
	}
}

_Noreturn void _longjmp(jmp_buf env, int val)
{
	longjmp(env, val);
}
