/* symtest: replaces musl's setjmp/longjmp (x86_64 assembly). The engine
 * implements these names itself (special functions: setjmp records the
 * continuation, longjmp resumes it), so these bodies only give the symbols a
 * definition; were they ever run, longjmp ends the path with a `model` error. */
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
