/* "./A" names the file A of the working directory, as toybox's `ln A` links
 * A to "./A" (natively: "File exists", exit 1; the model took "./A" for
 * another name and the link succeeded, exit 0). Linking, reading and
 * creating through "./" and ".//" prefixes name the same files in the
 * engine as natively. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int first_byte(const char *path)
{
	unsigned char b = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	int n = (int)read(fd, &b, 1);
	close(fd);
	return n == 1 ? b : -1000;
}

int main(void)
{
	char c = 0;
	if (read(0, &c, 1) != 1)
		return 9;
	if (c == 'l') {
		if (link("A", "./A") != 0) {
			printf("link A ./A: errno %d\n", errno);
			return 1;
		}
		printf("linked\n");
		return 0;
	}
	if (c == 'r') {
		printf("%s\n", first_byte("./A") == first_byte("A") && first_byte(".//A") == first_byte("A")
				       ? "same file"
				       : "other files");
		return 0;
	}
	if (c == 'c') {
		int fd = open(".//B", O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || write(fd, "x", 1) != 1)
			return 3;
		close(fd);
		printf("B: %d, ./B exclusive: %s\n", first_byte("B"),
		       open("./B", O_WRONLY | O_CREAT | O_EXCL, 0644) < 0 && errno == EEXIST ? "exists" : "created");
		unlink("B");
		return 0;
	}
	return 2;
}
