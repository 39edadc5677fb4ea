/* Standard input is a regular file in the POSIX model and in native replay:
 * a program that fstats it, seeks in it and reads it from the end takes the
 * same path in both (with a pipe, fstat and lseek answer otherwise). */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  struct stat st;
  if (fstat(0, &st) != 0)
    return 10;
  if (!S_ISREG(st.st_mode))
    return 11; /* a pipe or a device */
  off_t end = lseek(0, 0, SEEK_END);
  if (end != st.st_size)
    return 12;
  if (end < 2)
    return 13;
  char last[2];
  if (lseek(0, -2, SEEK_END) < 0 || read(0, last, 2) != 2)
    return 14;
  if (last[0] == 'o' && last[1] == 'k') {
    puts("ends with ok");
    return 0;
  }
  printf("ends with %d\n", last[1]);
  return 1;
}
