/* Following a file as `tail -f FILE` does: an inotify watch on a file that
 * exists (watching one that does not fails with ENOENT; watching the same
 * file again gives the same watch; a new instance numbers from 1 again),
 * then a poll that waits for a change without a timeout. Nothing in the model ever changes a file, so that path
 * blocks: its test says so, and natively the program waits there too until
 * the replay's timeout stops it. */
#include <poll.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <unistd.h>

int main(void) {
  char c = 0;
  if (read(0, &c, 1) != 1)
    return 2;
  int fd = inotify_init1(IN_CLOEXEC);
  if (fd < 0) {
    puts("no inotify");
    return 3;
  }
  const char *name = c == 'w' ? "A" : "Z";
  int wd = inotify_add_watch(fd, name, IN_MODIFY);
  if (wd < 0) {
    puts("cannot watch");
    return 1;
  }
  int again = inotify_add_watch(fd, name, IN_MODIFY | IN_ATTRIB);
  /* A new instance on the same descriptor numbers its watches from 1. */
  close(fd);
  if (inotify_init1(0) != fd || inotify_add_watch(fd, name, IN_MODIFY) != 1)
    return 5;
  struct pollfd p = {fd, POLLIN, 0};
  if (poll(&p, 1, 0) != 0)
    return 4; /* nothing has changed yet */
  printf("watching %d %d\n", wd, again);
  fflush(stdout);
  poll(&p, 1, -1);
  puts("changed");
  return 0;
}
