/* symtest POSIX runtime entry (like KLEE's __klee_posix_wrapper): builds the
 * symbolic environment from the program arguments, runs main (its envp the
 * engine's fixed environment, which __environ points at), then exit(). */
#include <stdlib.h>

int main(int argc, char **argv, char **envp);
void __symtest_posix_init(int *argc, char ***argv);
extern char **__environ;

int __symtest_posix_main(int argc, char **argv)
{
	__symtest_posix_init(&argc, &argv);
	exit(main(argc, argv, __environ));
}
