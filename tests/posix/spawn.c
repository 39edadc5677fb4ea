/* Running another program, as a shell runs a command (fork, then execve in
 * the child) or as env and nice do (execve alone). The model runs one
 * process and no other program: fork fails with ENOSYS, and execve with
 * ENOENT for a path that names no file, EACCES for one that does. A native
 * run of a test fails them the same way (the replay shim, the suite's
 * runner), so each path's exit status replays: natively the shell's child
 * would otherwise exec (busybox `sh` read `/` from stdin: exit 126 natively,
 * 2 in the engine, which could not fork). */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* how: 0 fork, then execv in the child (a shell); 1 execv alone (env);
 * 2 execvp alone (a search of PATH). */
static int run(const char *path, int how)
{
	char *argv[] = {(char *)path, 0};
	if (how) {
		if (how == 2)
			execvp(path, argv);
		else
			execv(path, argv);
		printf("cannot run %s: errno %d\n", path, errno);
		return errno == ENOENT ? 127 : 126;
	}
	pid_t pid = fork();
	if (pid < 0) {
		printf("cannot fork: errno %d\n", errno);
		return 2;
	}
	if (pid == 0) {
		execv(path, argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	printf("%s: status %d\n", path, WEXITSTATUS(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	switch (c) {
	case 's': return run("/bin/sh", 0);           /* a shell's command */
	case 'S': return run("/bin/sh", 1);           /* there is one: EACCES */
	case 'n': return run("/no/such/program", 1);  /* ENOENT */
	case 'p': return run("no-such-program", 2);   /* searched in PATH */
	case 'A': return run("A", 1);                 /* the test's file */
	}
	return 0;
}
