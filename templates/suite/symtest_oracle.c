/*
 * symtest_oracle.c - the behaviour oracle of a regression suite emitted by
 * `cargo symtest`: what one native run of a test did (its exit status, what it
 * wrote to stdout and stderr, the files its directory held at the end, the
 * values a harness recorded with symtest_expect_output), recorded once as the
 * test's expected behaviour (expected/<test>/, one plain file per stream) and
 * compared on every later run.
 *
 * Layout of expected/<test>/: `status` ("exit N" or "signal N"), `stdout`,
 * `stderr`, for whole programs `files.txt` (the names, one per line) and
 * `files/<name>`, for harness values `outputs.txt` ("<index> <name>") and
 * `outputs/<index>`, and `not-compared`: the streams that differed between the
 * runs of the recording (a time, a pid, a temporary name) and are not
 * compared, with the reason.  A stream without its file is not compared.
 */
#define _XOPEN_SOURCE 700
#include "symtest_oracle.h"
#include "symtest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Recorded streams are capped: a test that writes more is compared on its
 * first 4 MiB. */
#define STREAM_CAP ((size_t)4 << 20)

static int record_fd = -1;

/* symtest.h: a harness records a value as part of the test's behaviour. */
void symtest_expect_output(const char *name, const void *value, size_t size) {
  unsigned char header[8];
  size_t n = name ? strlen(name) : 0, i;
  if (record_fd < 0)
    return;
  for (i = 0; i < 8; i++)
    header[i] = (unsigned char)((uint64_t)n >> (8 * i));
  if (write(record_fd, header, 8) != 8 || (n && write(record_fd, name, n) != (ssize_t)n))
    return;
  for (i = 0; i < 8; i++)
    header[i] = (unsigned char)((uint64_t)size >> (8 * i));
  if (write(record_fd, header, 8) != 8)
    return;
  if (size && write(record_fd, value, size) != (ssize_t)size)
    return;
}

static int temp_fd(void) {
  char name[] = "/tmp/symtest-capture-XXXXXX";
  int fd = mkstemp(name);
  if (fd >= 0)
    unlink(name);
  return fd;
}

int symtest_capture_open(struct symtest_capture *c) {
  memset(c, 0, sizeof *c);
  c->rec = temp_fd();
  if (c->rec < 0 || pipe(c->out) != 0 || pipe(c->err) != 0)
    return -1;
  fcntl(c->out[0], F_SETFD, FD_CLOEXEC);
  fcntl(c->err[0], F_SETFD, FD_CLOEXEC);
  return 0;
}

void symtest_capture_child(const struct symtest_capture *c, int rec_fd) {
  fflush(stdout);
  fflush(stderr);
  if (dup2(c->out[1], 1) < 0 || dup2(c->err[1], 2) < 0)
    _exit(125);
  if (c->out[1] > 2)
    close(c->out[1]);
  if (c->err[1] > 2)
    close(c->err[1]);
  if (c->out[0] >= 0)
    close(c->out[0]);
  if (c->err[0] >= 0)
    close(c->err[0]);
  record_fd = rec_fd >= 0 ? rec_fd : c->rec;
  /* Not for the programs the test's program may start. */
  fcntl(record_fd, F_SETFD, FD_CLOEXEC);
}

/* Appends what `fd` has to `*buf` (capped); 0 at end of file. */
static int drain(int fd, unsigned char **buf, size_t *len) {
  unsigned char chunk[65536];
  ssize_t r = read(fd, chunk, sizeof chunk);
  size_t keep;
  if (r <= 0)
    return r < 0 && errno == EINTR ? 1 : 0;
  keep = *len + (size_t)r <= STREAM_CAP ? (size_t)r : (*len < STREAM_CAP ? STREAM_CAP - *len : 0);
  if (keep) {
    unsigned char *b = (unsigned char *)realloc(*buf, *len + keep);
    if (!b)
      exit(2);
    memcpy(b + *len, chunk, keep);
    *buf = b;
    *len += keep;
  }
  return 1;
}

/* Milliseconds of the monotonic clock (the suite's wrap of clock_gettime
 * answers the model's fixed time only for the wall clocks). */
static long long now_ms(void) {
  struct timespec t;
  if (clock_gettime(CLOCK_MONOTONIC, &t) != 0)
    return 0;
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Milliseconds of processor time process `pid` has used, or -1 where that
 * cannot be read. */
static long long cpu_ms(int pid) {
#if defined(__linux__)
  clockid_t clock;
  struct timespec t;
  if (clock_getcpuclockid((pid_t)pid, &clock) == 0 && clock_gettime(clock, &t) == 0)
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
#else
  (void)pid;
#endif
  return -1;
}

/* How many times its timeout a test may take in wall-clock time: the
 * timeout counts the test's processor time (the runner's arm_timeout), which
 * a machine loaded this many times over still gives it within this time. */
#define WALL_FACTOR 5

int symtest_capture_wait(struct symtest_capture *c, int pid, unsigned timeout_ms) {
  int open_out = 1, open_err = 1, status = 0, ended = 0, grace = 0, killed = 0;
  /* The child's own timer (SIGALRM) ends a test at its timeout, unless the
   * program under test takes the timer or the signal for itself (pv's
   * display updates): the runner ends it, as the timer would have, once it
   * has used its timeout and a second of processor time, or, a test that
   * waits without running, WALL_FACTOR times its timeout and a second of
   * wall-clock time (all of it where processor time cannot be read):
   * SIGTERM (a coverage build writes its profile there), then SIGKILL a
   * second later. */
  long long cpu_limit = (long long)timeout_ms + 1000;
  long long deadline =
      now_ms() + (cpu_ms(pid) < 0 ? 1 : WALL_FACTOR) * (long long)timeout_ms + 1000;
  close(c->out[1]);
  close(c->err[1]);
  while (open_out || open_err) {
    struct pollfd p[2];
    int n = 0, r;
    if (open_out) {
      p[n].fd = c->out[0];
      p[n].events = POLLIN;
      n++;
    }
    if (open_err) {
      p[n].fd = c->err[0];
      p[n].events = POLLIN;
      n++;
    }
    r = symtest_runner_poll(p, (unsigned long)n, 100);
    if (r > 0) {
      int k = 0;
      if (open_out) {
        if (p[k].revents & (POLLIN | POLLHUP | POLLERR))
          open_out = drain(c->out[0], &c->out_buf, &c->out_len);
        k++;
      }
      if (open_err && (p[k].revents & (POLLIN | POLLHUP | POLLERR)))
        open_err = drain(c->err[0], &c->err_buf, &c->err_len);
    }
    /* A process the test started may hold the pipes open after the test
     * ended: stop a second after its end. */
    if (!ended && waitpid(pid, &status, WNOHANG) == pid)
      ended = 1;
    if (ended && r == 0 && ++grace > 10)
      break;
    if (!ended && killed < 2 && (now_ms() > deadline || (!killed && cpu_ms(pid) > cpu_limit))) {
      kill(pid, killed ? SIGKILL : SIGTERM);
      killed++;
      deadline = now_ms() + 1000;
    }
  }
  close(c->out[0]);
  close(c->err[0]);
  if (!ended && waitpid(pid, &status, 0) < 0)
    status = 0;
  /* Reported as the timer's SIGALRM: the test ran out of its time. */
  if (killed && WIFSIGNALED(status) && (WTERMSIG(status) == SIGKILL || WTERMSIG(status) == SIGTERM))
    status = SIGALRM;
  return status;
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fputs("symtest: out of memory\n", stderr);
    exit(2);
  }
  return p;
}

static char *xstrdup(const char *s) {
  char *d = (char *)xmalloc(strlen(s) + 1);
  strcpy(d, s);
  return d;
}

/* The bytes of `fd` from its start (at most `cap`). */
static unsigned char *slurp_fd(int fd, size_t cap, size_t *len) {
  size_t used = 0, size = 4096;
  unsigned char *buf = (unsigned char *)xmalloc(size);
  ssize_t r;
  if (lseek(fd, 0, SEEK_SET) != 0) {
    *len = 0;
    return buf;
  }
  for (;;) {
    if (used == size) {
      if (size >= cap)
        break;
      size *= 2;
      buf = (unsigned char *)realloc(buf, size);
      if (!buf)
        exit(2);
    }
    r = read(fd, buf + used, size - used);
    if (r <= 0)
      break;
    used += (size_t)r;
  }
  *len = used < cap ? used : cap;
  return buf;
}

static unsigned char *slurp_path(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY);
  unsigned char *b;
  if (fd < 0)
    return NULL;
  b = slurp_fd(fd, STREAM_CAP, len);
  close(fd);
  return b;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const struct symtest_blob *)a)->name, ((const struct symtest_blob *)b)->name);
}

static uint64_t le64(const unsigned char *p) {
  uint64_t v = 0;
  int i;
  for (i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

void symtest_capture_collect(struct symtest_capture *c, int status, const char *files_dir,
                             struct symtest_observed *o) {
  size_t len = 0, at = 0;
  unsigned char *rec;
  memset(o, 0, sizeof *o);
  o->exited = WIFEXITED(status);
  o->code = o->exited ? WEXITSTATUS(status) : 0;
  o->sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  o->out.data = c->out_buf ? c->out_buf : (unsigned char *)xmalloc(1);
  o->out.len = c->out_len;
  o->err.data = c->err_buf ? c->err_buf : (unsigned char *)xmalloc(1);
  o->err.len = c->err_len;
  c->out_buf = c->err_buf = NULL;
  rec = slurp_fd(c->rec, STREAM_CAP, &len);
  while (at + 8 <= len) {
    uint64_t n = le64(rec + at), size;
    struct symtest_blob *b;
    if (n > len - at - 8 || at + 8 + n + 8 > len)
      break;
    size = le64(rec + at + 8 + n);
    if (size > len - (at + 16 + n))
      break;
    o->outputs = (struct symtest_blob *)realloc(o->outputs, (o->n_outputs + 1) * sizeof *o->outputs);
    if (!o->outputs)
      exit(2);
    b = &o->outputs[o->n_outputs++];
    b->name = (char *)xmalloc(n + 1);
    memcpy(b->name, rec + at + 8, n);
    b->name[n] = 0;
    b->len = size;
    b->data = (unsigned char *)xmalloc(size);
    memcpy(b->data, rec + at + 16 + n, size);
    at += 16 + n + size;
  }
  free(rec);
  close(c->rec);
  if (files_dir) {
    DIR *d = opendir(files_dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      char path[4096];
      struct stat st;
      struct symtest_blob *b;
      snprintf(path, sizeof path, "%s/%s", files_dir, e->d_name);
      if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || strchr(e->d_name, '\n'))
        continue;
      o->files = (struct symtest_blob *)realloc(o->files, (o->n_files + 1) * sizeof *o->files);
      if (!o->files)
        exit(2);
      b = &o->files[o->n_files++];
      b->name = xstrdup(e->d_name);
      b->data = slurp_path(path, &b->len);
      if (!b->data) {
        b->data = (unsigned char *)xmalloc(1);
        b->len = 0;
      }
    }
    if (d)
      closedir(d);
    if (o->n_files)
      qsort(o->files, o->n_files, sizeof *o->files, by_name);
  }
}

void symtest_observed_show(const struct symtest_observed *o) {
  fflush(stdout);
  fflush(stderr);
  if (o->out.len && write(1, o->out.data, o->out.len) < 0)
    return;
  if (o->err.len && write(2, o->err.data, o->err.len) < 0)
    return;
}

static void free_blobs(struct symtest_blob *b, unsigned n) {
  unsigned i;
  for (i = 0; i < n; i++) {
    free(b[i].name);
    free(b[i].data);
  }
  free(b);
}

void symtest_observed_free(struct symtest_observed *o) {
  free(o->out.data);
  free(o->err.data);
  free_blobs(o->files, o->n_files);
  free_blobs(o->outputs, o->n_outputs);
  memset(o, 0, sizeof *o);
}

/* ---- recording ----------------------------------------------------------- */

static int same_blob(const struct symtest_blob *a, const struct symtest_blob *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static int same_blobs(const struct symtest_blob *a, unsigned na, const struct symtest_blob *b, unsigned nb) {
  unsigned i;
  if (na != nb)
    return 0;
  for (i = 0; i < na; i++)
    if (strcmp(a[i].name, b[i].name) != 0 || !same_blob(&a[i], &b[i]))
      return 0;
  return 1;
}

static int write_path(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  if ((len && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
    return -1;
  return 0;
}

/* Empties DIR/TEST (two levels: files/ and outputs/). */
static void clear_dir(const char *path) {
  DIR *d = opendir(path);
  struct dirent *e;
  if (!d)
    return;
  while ((e = readdir(d))) {
    char p[4096];
    struct stat st;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(p, sizeof p, "%s/%s", path, e->d_name);
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      clear_dir(p);
      rmdir(p);
    } else
      unlink(p);
  }
  closedir(d);
}

static const char *signal_word(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV";
  case SIGABRT: return "SIGABRT";
  case SIGFPE: return "SIGFPE";
  case SIGILL: return "SIGILL";
  case SIGBUS: return "SIGBUS";
  case SIGALRM: return "SIGALRM (timeout)";
  case SIGKILL: return "SIGKILL";
  default: return "a signal";
  }
}

static void status_text(const struct symtest_observed *o, char *buf, size_t size) {
  if (o->exited)
    snprintf(buf, size, "exit %d", o->code);
  else
    snprintf(buf, size, "signal %d (%s)", o->sig, signal_word(o->sig));
}

static size_t before_sanitizer_report(const struct symtest_blob *b);

static int same_blob_before_report(const struct symtest_blob *a, const struct symtest_blob *b) {
  size_t n = before_sanitizer_report(a);
  return n == before_sanitizer_report(b) && (n == 0 || memcmp(a->data, b->data, n) == 0);
}

int symtest_record(const char *dir, const char *test, const struct symtest_observed *runs, unsigned n,
                   int program) {
  char base[4096], path[4096], status[64], note[1024];
  unsigned i, k;
  int stable_status = 1, stable_out = 1, stable_err = 1, stable_files = 1, stable_outputs = 1;
  size_t used = 0;
  FILE *f;
  note[0] = 0;
  mkdir(dir, 0777);
  snprintf(base, sizeof base, "%s/%s", dir, test);
  mkdir(base, 0777);
  clear_dir(base);
  for (i = 1; i < n; i++) {
    stable_status &= runs[i].exited == runs[0].exited && runs[i].code == runs[0].code && runs[i].sig == runs[0].sig;
    stable_out &= same_blob(&runs[i].out, &runs[0].out);
    /* stderr up to a sanitizer's report, as it is compared: the report
     * names the process and its addresses. */
    stable_err &= same_blob_before_report(&runs[i].err, &runs[0].err);
    stable_files &= same_blobs(runs[i].files, runs[i].n_files, runs[0].files, runs[0].n_files);
    stable_outputs &= same_blobs(runs[i].outputs, runs[i].n_outputs, runs[0].outputs, runs[0].n_outputs);
  }
#define NOTE(what)                                                                                       \
  used += (size_t)snprintf(note + used, sizeof note - used, "%s varies between runs: not compared\n", what)
  if (stable_status) {
    status_text(&runs[0], status, sizeof status);
    strcat(status, "\n");
    snprintf(path, sizeof path, "%s/status", base);
    if (write_path(path, status, strlen(status)) != 0)
      return -1;
  } else
    NOTE("the exit status");
  if (stable_out) {
    snprintf(path, sizeof path, "%s/stdout", base);
    if (write_path(path, runs[0].out.data, runs[0].out.len) != 0)
      return -1;
  } else
    NOTE("stdout");
  if (stable_err) {
    snprintf(path, sizeof path, "%s/stderr", base);
    if (write_path(path, runs[0].err.data, runs[0].err.len) != 0)
      return -1;
  } else
    NOTE("stderr");
  if (program && stable_files) {
    snprintf(path, sizeof path, "%s/files.txt", base);
    f = fopen(path, "w");
    if (!f)
      return -1;
    for (k = 0; k < runs[0].n_files; k++)
      fprintf(f, "%s\n", runs[0].files[k].name);
    if (fclose(f) != 0)
      return -1;
    if (runs[0].n_files) {
      snprintf(path, sizeof path, "%s/files", base);
      mkdir(path, 0777);
    }
    for (k = 0; k < runs[0].n_files; k++) {
      snprintf(path, sizeof path, "%s/files/%s", base, runs[0].files[k].name);
      if (write_path(path, runs[0].files[k].data, runs[0].files[k].len) != 0)
        return -1;
    }
  } else if (program)
    NOTE("the files the test leaves");
  if (stable_outputs && runs[0].n_outputs) {
    snprintf(path, sizeof path, "%s/outputs.txt", base);
    f = fopen(path, "w");
    if (!f)
      return -1;
    for (k = 0; k < runs[0].n_outputs; k++)
      fprintf(f, "%03u %s\n", k + 1, runs[0].outputs[k].name);
    if (fclose(f) != 0)
      return -1;
    snprintf(path, sizeof path, "%s/outputs", base);
    mkdir(path, 0777);
    for (k = 0; k < runs[0].n_outputs; k++) {
      snprintf(path, sizeof path, "%s/outputs/%03u", base, k + 1);
      if (write_path(path, runs[0].outputs[k].data, runs[0].outputs[k].len) != 0)
        return -1;
    }
  } else if (!stable_outputs)
    NOTE("the values recorded with symtest_expect_output");
#undef NOTE
  if (used) {
    snprintf(path, sizeof path, "%s/not-compared", base);
    if (write_path(path, note, used) != 0)
      return -1;
  }
  return 0;
}

/* ---- comparison ---------------------------------------------------------- */

/* `len` bytes of `p` as a C string literal, at most `max` characters. */
static void excerpt(const unsigned char *p, size_t len, char *out, size_t size, size_t max) {
  size_t i, used = 0;
  if (size < 8)
    return;
  out[used++] = '"';
  for (i = 0; i < len && used + 8 < size; i++) {
    unsigned char ch = p[i];
    if (i >= max) {
      used += (size_t)snprintf(out + used, size - used, "...");
      break;
    }
    if (ch == '\n')
      used += (size_t)snprintf(out + used, size - used, "\\n");
    else if (ch == '\t')
      used += (size_t)snprintf(out + used, size - used, "\\t");
    else if (ch == '"' || ch == '\\')
      used += (size_t)snprintf(out + used, size - used, "\\%c", ch);
    else if (ch < 0x20 || ch >= 0x7f)
      used += (size_t)snprintf(out + used, size - used, "\\%03o", ch);
    else
      out[used++] = (char)ch;
  }
  if (used + 2 <= size) {
    out[used++] = '"';
    out[used] = 0;
  } else
    out[size - 1] = 0;
}

/* The line of `b` holding offset `at`: its start and length (with its \n). */
static void line_at(const struct symtest_blob *b, size_t at, size_t *start, size_t *len) {
  size_t s = at < b->len ? at : b->len, e;
  while (s > 0 && b->data[s - 1] != '\n')
    s--;
  e = s;
  while (e < b->len && b->data[e] != '\n')
    e++;
  if (e < b->len)
    e++;
  *start = s;
  *len = e - s;
}

/* Why `got` differs from `want` (the stream named `what`), or 0 if equal. */
static int blob_differs(const char *what, const struct symtest_blob *want, const struct symtest_blob *got, char *why,
                        size_t size) {
  size_t at = 0, line = 1, i, ws, wl, gs, gl;
  char e1[160], e2[160];
  if (same_blob(want, got))
    return 0;
  while (at < want->len && at < got->len && want->data[at] == got->data[at])
    at++;
  for (i = 0; i < at; i++)
    line += want->data[i] == '\n';
  line_at(want, at, &ws, &wl);
  line_at(got, at, &gs, &gl);
  excerpt(want->data + ws, wl, e1, sizeof e1, 72);
  excerpt(got->data + gs, gl, e2, sizeof e2, 72);
  snprintf(why, size, "%s differs at line %lu (byte %lu): expected %s, got %s (%lu bytes expected, %lu written)", what,
           (unsigned long)line, (unsigned long)at, wl ? e1 : "end of output", gl ? e2 : "end of output",
           (unsigned long)want->len, (unsigned long)got->len);
  return 1;
}

/* Where a sanitizer's report starts in `b` (the start of its first line), or
 * its length: the report names the source paths of the build and the addresses
 * of the process, which another build of the suite, or another run of it, does
 * not share. What the program wrote before it is compared; that it crashed is
 * the status's to say. */
static size_t before_sanitizer_report(const struct symtest_blob *b) {
  static const char *const marks[] = {": runtime error: ", "==ERROR: ", NULL};
  size_t at, k, n;
  for (at = 0; at < b->len; at++) {
    for (k = 0; marks[k]; k++) {
      n = strlen(marks[k]);
      if (at + n <= b->len && memcmp(b->data + at, marks[k], n) == 0) {
        while (at > 0 && b->data[at - 1] != '\n')
          at--;
        /* AddressSanitizer's report opens with a line of `=`. */
        if (k == 1 && at > 0) {
          size_t prev = at - 1;
          while (prev > 0 && b->data[prev - 1] != '\n')
            prev--;
          if (b->data[prev] == '=' && b->data[at - 2] == '=')
            at = prev;
        }
        return at;
      }
    }
  }
  return b->len;
}

static int read_blob(const char *base, const char *name, struct symtest_blob *b) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", base, name);
  b->name = NULL;
  b->data = slurp_path(path, &b->len);
  return b->data != NULL;
}

int symtest_compare(const char *dir, const char *test, const struct symtest_observed *o, int exit_only,
                    char *why, size_t size) {
  char base[4096], path[4096], want_status[64], got_status[64];
  struct symtest_blob b;
  FILE *f;
  int differs = 0;
  snprintf(base, sizeof base, "%s/%s", dir, test);
  snprintf(path, sizeof path, "%s/status", base);
  if (access(base, F_OK) != 0)
    return -1;
  if (read_blob(base, "status", &b)) {
    size_t n = b.len < sizeof want_status - 1 ? b.len : sizeof want_status - 1;
    memcpy(want_status, b.data, n);
    want_status[n] = 0;
    if (n && want_status[n - 1] == '\n')
      want_status[n - 1] = 0;
    free(b.data);
    status_text(o, got_status, sizeof got_status);
    if (strcmp(want_status, got_status) != 0) {
      snprintf(why, size, "exit status differs: expected %s, got %s", want_status, got_status);
      return 1;
    }
  }
  if (exit_only)
    return 0;
  if (read_blob(base, "stdout", &b)) {
    differs = blob_differs("stdout", &b, &o->out, why, size);
    free(b.data);
    if (differs)
      return 1;
  }
  if (read_blob(base, "stderr", &b)) {
    struct symtest_blob want = b, got = o->err;
    want.len = before_sanitizer_report(&b);
    got.len = before_sanitizer_report(&o->err);
    differs = blob_differs("stderr", &want, &got, why, size);
    free(b.data);
    if (differs)
      return 1;
  }
  snprintf(path, sizeof path, "%s/files.txt", base);
  if ((f = fopen(path, "r"))) {
    char name[1024], list_got[2048] = "", list_want[2048] = "";
    unsigned seen = 0, k;
    while (!differs && fgets(name, sizeof name, f)) {
      struct symtest_blob want;
      char rel[1100], what[1100];
      size_t n = strlen(name);
      if (n && name[n - 1] == '\n')
        name[--n] = 0;
      strncat(list_want, name, sizeof list_want - strlen(list_want) - 2);
      strcat(list_want, " ");
      for (k = 0; k < o->n_files && strcmp(o->files[k].name, name) != 0; k++)
        ;
      if (k == o->n_files) {
        snprintf(why, size, "file %s: the test no longer leaves it", name);
        differs = 1;
        break;
      }
      seen++;
      snprintf(rel, sizeof rel, "files/%s", name);
      snprintf(what, sizeof what, "file %s", name);
      if (read_blob(base, rel, &want)) {
        differs = blob_differs(what, &want, &o->files[k], why, size);
        free(want.data);
      }
    }
    fclose(f);
    if (differs)
      return 1;
    if (seen != o->n_files) {
      for (k = 0; k < o->n_files; k++) {
        strncat(list_got, o->files[k].name, sizeof list_got - strlen(list_got) - 2);
        strcat(list_got, " ");
      }
      snprintf(why, size, "the files the test leaves differ: expected %sgot %s", list_want, list_got);
      return 1;
    }
  }
  snprintf(path, sizeof path, "%s/outputs.txt", base);
  if ((f = fopen(path, "r"))) {
    char line[1024];
    unsigned k = 0;
    while (!differs && fgets(line, sizeof line, f)) {
      struct symtest_blob want;
      char rel[64], what[1100];
      char *name = strchr(line, ' ');
      size_t n = strlen(line);
      if (n && line[n - 1] == '\n')
        line[--n] = 0;
      name = name ? name + 1 : line;
      if (k >= o->n_outputs) {
        snprintf(why, size, "output '%s' (#%u) was not recorded: the harness stopped before it", name, k + 1);
        differs = 1;
        break;
      }
      if (strcmp(o->outputs[k].name, name) != 0) {
        snprintf(why, size, "output #%u: expected '%s', the harness recorded '%s'", k + 1, name, o->outputs[k].name);
        differs = 1;
        break;
      }
      snprintf(rel, sizeof rel, "outputs/%03u", k + 1);
      snprintf(what, sizeof what, "output '%s'", name);
      if (read_blob(base, rel, &want)) {
        differs = blob_differs(what, &want, &o->outputs[k], why, size);
        free(want.data);
      }
      k++;
    }
    fclose(f);
    if (differs)
      return 1;
    if (k != o->n_outputs) {
      snprintf(why, size, "the harness recorded %u outputs, %u expected", o->n_outputs, k);
      return 1;
    }
  }
  return 0;
}

const char *symtest_not_compared(const char *dir, const char *test) {
  static char note[1024];
  char path[4096];
  size_t len = 0, i;
  unsigned char *b;
  snprintf(path, sizeof path, "%s/%s/not-compared", dir, test);
  note[0] = 0;
  b = slurp_path(path, &len);
  if (!b)
    return note;
  for (i = 0; i < len && i + 1 < sizeof note; i++)
    note[i] = b[i] == '\n' ? (i + 1 < len ? ';' : 0) : (char)b[i];
  note[i < sizeof note ? i : sizeof note - 1] = 0;
  free(b);
  return note;
}
