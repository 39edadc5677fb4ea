/*
 * symtest_env.c - the engine's environment for the code under test, in the
 * native build of a regression suite emitted by `cargo symtest`.
 *
 * The suite links with --wrap for the calls below (Makefile: ENV_WRAP;
 * symtest.cmake: the same through LINKER:), so the code under test sees what
 * the engine's model answered (libc-models/posix/syscall.c) on every machine:
 *
 *   the wall clock   time, gettimeofday, clock_gettime(CLOCK_REALTIME, ...)
 *                    (and musl's __clock_gettime, which its time() calls)
 *                    read SYMTEST_EPOCH: a program printing the date (pr's
 *                    page headers) prints what it printed under the engine.
 *                    Clocks that measure intervals (CLOCK_MONOTONIC, ...) run
 *                    as usual.
 *   sleeping         nanosleep, clock_nanosleep, sleep and usleep return at
 *                    once, having slept all they were asked to (the model:
 *                    time does not pass): `tail -f` polls its file again
 *                    without waiting a second, as it did in the engine.
 *   waiting on       poll, ppoll, select and pselect given a timeout do not
 *   descriptors      wait for it (the model, libc-models/posix/fd.c and
 *                    syscall.c: time does not pass, and it answers at once):
 *                    the host's call runs with a timeout of zero, so what it
 *                    reports ready is ready, and nothing ready is the
 *                    timeout, spent at once; the caller's timeout is left as
 *                    it was (the model writes no time left back). pv's rate
 *                    limit, a select with no descriptor in a loop, waited
 *                    natively until the runner's wall-clock backstop ended
 *                    it. Without a timeout (a negative one, a null
 *                    pointer) they wait as usual. The runner's own waits
 *                    call the host's poll (symtest_runner_poll).
 *   the processors   sched_getaffinity reports one processor (CPU 0), and
 *                    sysconf(_SC_NPROCESSORS_ONLN / _CONF) 1: a program that
 *                    sizes its threads by the machine (sort, gnulib's
 *                    nproc) takes the path it took in the engine, not one
 *                    that depends on the host's processors.
 *   the memory       sysconf(_SC_PHYS_PAGES / _SC_AVPHYS_PAGES): 4 GiB in
 *                    all, 2 GiB free, as the model's sysinfo answers: sort
 *                    sizes its buffer by the free memory (gnulib's physmem),
 *                    and on a host with most of its memory free it took
 *                    another branch than in the engine.
 *
 * The files a test creates were last accessed and modified at SYMTEST_EPOCH
 * too (symtest_child.c).
 */
#define _GNU_SOURCE /* cpu_set_t */
#include "symtest_oracle.h"
#include "symtest_tests.h"
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

int __real_clock_gettime(clockid_t id, struct timespec *ts);
long __real_sysconf(int name);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap___clock_gettime(clockid_t id, struct timespec *ts);
time_t __wrap_time(time_t *t);
int __wrap_gettimeofday(struct timeval *tv, void *tz);
int __wrap_sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set);
long __wrap_sysconf(int name);
int __wrap_nanosleep(const struct timespec *req, struct timespec *rem);
int __wrap_clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem);
unsigned __wrap_sleep(unsigned seconds);
int __wrap_usleep(useconds_t usec);
int __real_poll(struct pollfd *fds, nfds_t n, int timeout);
int __real_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask);
int __real_select(int n, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout);
int __real_pselect(int n, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *timeout,
                   const sigset_t *mask);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask);
int __wrap_select(int n, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout);
int __wrap_pselect(int n, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *timeout,
                   const sigset_t *mask);

int __wrap_clock_gettime(clockid_t id, struct timespec *ts) {
  if (id != CLOCK_REALTIME && id != 5 /* CLOCK_REALTIME_COARSE */ && id != 11 /* CLOCK_TAI */)
    return __real_clock_gettime(id, ts);
  ts->tv_sec = SYMTEST_EPOCH;
  ts->tv_nsec = 0;
  return 0;
}

int __wrap___clock_gettime(clockid_t id, struct timespec *ts) { return __wrap_clock_gettime(id, ts); }

time_t __wrap_time(time_t *t) {
  if (t)
    *t = SYMTEST_EPOCH;
  return SYMTEST_EPOCH;
}

int __wrap_gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  if (tv) {
    tv->tv_sec = SYMTEST_EPOCH;
    tv->tv_usec = 0;
  }
  return 0;
}

int __wrap_sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
  (void)pid;
  if (size == 0 || !set) {
    errno = EINVAL;
    return -1;
  }
  memset(set, 0, size);
  ((unsigned char *)set)[0] = 1;
  return 0;
}

/* The model's sysinfo (libc-models/posix/syscall.c): totalram 4 GiB,
 * freeram 2 GiB, bufferram 0, mem_unit 1; musl's sysconf divides by its
 * page size. */
#define SYMTEST_MODEL_TOTALRAM (4UL << 30)
#define SYMTEST_MODEL_FREERAM (2UL << 30)

long __wrap_sysconf(int name) {
  if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF)
    return 1;
  if (name == _SC_PHYS_PAGES || name == _SC_AVPHYS_PAGES) {
    long page = __real_sysconf(_SC_PAGESIZE);
    if (page <= 0)
      page = 4096;
    return (long)((name == _SC_PHYS_PAGES ? SYMTEST_MODEL_TOTALRAM : SYMTEST_MODEL_FREERAM) /
                  (unsigned long)page);
  }
  return __real_sysconf(name);
}

int __wrap_clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem) {
  (void)id;
  (void)flags;
  if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L)
    return EINVAL;
  if (rem)
    rem->tv_sec = rem->tv_nsec = 0;
  return 0;
}

int __wrap_nanosleep(const struct timespec *req, struct timespec *rem) {
  int e = __wrap_clock_nanosleep(CLOCK_REALTIME, 0, req, rem);
  if (e) {
    errno = e;
    return -1;
  }
  return 0;
}

unsigned __wrap_sleep(unsigned seconds) {
  (void)seconds;
  return 0;
}

int __wrap_usleep(useconds_t usec) {
  (void)usec;
  return 0;
}

/* A timeout the host's call accepts (one it rejects, EINVAL, is passed on). */
static int valid_timespec(const struct timespec *t) {
  return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout) {
  return __real_poll(fds, n, timeout < 0 ? timeout : 0);
}

int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask) {
  struct timespec now = {0, 0};
  return __real_ppoll(fds, n, timeout && valid_timespec(timeout) ? &now : timeout, mask);
}

int __wrap_select(int n, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout) {
  struct timeval now = {0, 0};
  if (!timeout || timeout->tv_sec < 0 || timeout->tv_usec < 0 || timeout->tv_usec >= 1000000L)
    return __real_select(n, rd, wr, ex, timeout);
  return __real_select(n, rd, wr, ex, &now);
}

int __wrap_pselect(int n, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *timeout,
                   const sigset_t *mask) {
  struct timespec now = {0, 0};
  return __real_pselect(n, rd, wr, ex, timeout && valid_timespec(timeout) ? &now : timeout, mask);
}

/* The runner's own waits (draining a test's output, the second between
 * recorded runs) are the host's: they are not the code under test's. */
int symtest_runner_poll(struct pollfd *fds, unsigned long n, int timeout_ms) {
  return __real_poll(fds, (nfds_t)n, timeout_ms);
}
