/* An empty path names no file: open("") fails with ENOENT, with O_CREAT
 * too (as `uniq - ''` showed, whose output operand is empty), in the POSIX
 * model as natively. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  char c = 0;
  if (read(0, &c, 1) != 1)
    return 9;
  int flags = c == 'w' ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY;
  int fd = open("", flags, 0600);
  if (fd >= 0)
    return 2; /* opened a file with no name */
  if (errno != ENOENT)
    return 3;
  FILE *f = fopen("", c == 'w' ? "w" : "r");
  if (f)
    return 4;
  return c == 'w' ? 1 : 0;
}
