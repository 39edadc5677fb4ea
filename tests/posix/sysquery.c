/* System calls real utilities make to size buffers and pick strategies
 * (sort: sysinfo, getrlimit, faccessat2; tail: fstatfs, nanosleep; id:
 * getgroups): modelled, with
 * deterministic answers that a real machine also gives (no "unmodelled
 * system call" warning, the same output natively). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  struct sysinfo si;
  struct rlimit rl;
  struct statfs fs;
  struct timespec ts = {0, 1000};
  int ok = sysinfo(&si) == 0 && si.totalram > 0 && si.mem_unit > 0;
  ok = ok && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 2;
  ok = ok && statfs(".", &fs) == 0 && fs.f_bsize > 0;
  ok = ok && nanosleep(&ts, 0) == 0;
  ok = ok && faccessat(AT_FDCWD, ".", R_OK, AT_EACCESS) == 0;
  gid_t groups[16];
  ok = ok && getgroups(16, groups) >= 0 && getgroups(0, groups) >= 0;
  char c;
  if (read(0, &c, 1) == 1 && c == 'x')
    return ok ? 3 : 4;
  puts(ok ? "ok" : "failed");
  return ok ? 0 : 1;
}
