/* The date a program prints replays: every clock of the POSIX model reads
 * one fixed time, and natively the replay shim fixes the clocks to it; a
 * symbolic file's modification time is that time too (as `pr` prints it in
 * its page headers). */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

int main(int argc, char **argv) {
  struct timespec ts;
  struct timeval tv;
  time_t now = time(NULL);
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0 || gettimeofday(&tv, NULL) != 0)
    return 3;
  char buf[64];
  strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", gmtime(&now));
  printf("now %s %ld %ld\n", buf, (long)ts.tv_sec, (long)tv.tv_sec);
  if (argc > 1) {
    struct stat st;
    if (stat(argv[1], &st) != 0)
      return 2;
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", gmtime(&st.st_mtime));
    printf("%s modified %s\n", argv[1], buf);
  }
  return 0;
}
