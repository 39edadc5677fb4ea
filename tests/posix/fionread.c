/* FIONREAD on standard input answers the bytes a read would get, as Linux
 * answers it for a regular file (the native replay's stdin): GNU cat asks it
 * before each read and takes another path when it fails. */
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(void) {
  int n = -1;
  char c;
  if (ioctl(0, FIONREAD, &n) != 0) {
    puts("no FIONREAD");
    return 2;
  }
  printf("pending %d\n", n);
  if (n > 0 && read(0, &c, 1) == 1 && ioctl(0, FIONREAD, &n) == 0)
    printf("then %d\n", n);
  return n == 3 ? 0 : 1;
}
