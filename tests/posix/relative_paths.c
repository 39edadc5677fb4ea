/* Names relative to the working directory: the program's own name (argv[0],
 * as unzipsfx opens itself as its archive), a file and a directory beside
 * it where the program was started, and the directories "." and "..". Each
 * test runs natively in a fresh directory holding only the model's files,
 * so none of the names but the directories names anything, in the engine
 * too. */
#include <stdio.h>
#include <sys/stat.h>

static void probe(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		printf("%s: none\n", path);
	else
		printf("%s: %s\n", path, S_ISDIR(st.st_mode) ? "directory" : "file");
}

int main(int argc, char **argv)
{
	(void)argc;
	probe(argv[0]);
	FILE *f = fopen(argv[0], "rb");
	printf("open: %s\n", f ? "opened" : "none");
	probe("data");
	probe("./data");
	probe("sub");
	probe("sub/../data");
	probe(".");
	probe("./");
	probe("..");
	probe("../..");
	probe("/");
	return f != 0;
}
