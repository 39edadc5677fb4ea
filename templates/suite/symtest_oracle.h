/*
 * symtest_oracle.h - what one native run of a test did (exit status, stdout,
 * stderr, the files it left, the values a harness recorded), recorded as the
 * suite's expected behaviour and compared on every run (symtest_oracle.c).
 */
#ifndef SYMTEST_ORACLE_H
#define SYMTEST_ORACLE_H

#include <stddef.h>

struct symtest_blob {
  char *name;
  unsigned char *data;
  size_t len;
};

/* One run. */
struct symtest_observed {
  int exited;    /* 1: exit(code); 0: killed by signal `sig` */
  int code;
  int sig;
  struct symtest_blob out, err;
  struct symtest_blob *files; /* what the test's directory held at its end */
  unsigned n_files;
  struct symtest_blob *outputs; /* symtest_expect_output calls, in order */
  unsigned n_outputs;
};

/* Where a child's streams go: stdout and stderr into pipes the parent drains
 * (a pipe, as the engine's model has them: not a regular file, not a
 * terminal), symtest_expect_output into an unlinked temporary file. */
struct symtest_capture {
  int out[2], err[2], rec;
  unsigned char *out_buf, *err_buf;
  size_t out_len, err_len;
};

/* Opens the capture (before fork); 0 on success. */
int symtest_capture_open(struct symtest_capture *c);
/* In the child: stdout and stderr to the capture, symtest_expect_output to
 * its record file (`rec_fd`: where the record file is, -1 for c->rec). */
void symtest_capture_child(const struct symtest_capture *c, int rec_fd);
/* In the parent, right after fork: drains the child's streams until it ends
 * (or its output stays open past its end), returns its wait status. */
int symtest_capture_wait(struct symtest_capture *c, int pid, unsigned timeout_ms);

/* The host's poll, for the runner's own waits: the code under test's poll is
 * wrapped to answer at once, as the engine's model does (symtest_env.c). */
struct pollfd;
int symtest_runner_poll(struct pollfd *fds, unsigned long n, int timeout_ms);
/* In the parent, after the child ended with `status`: everything it did
 * (`files_dir`: the test's directory, or NULL); closes the capture. */
void symtest_capture_collect(struct symtest_capture *c, int status, const char *files_dir,
                             struct symtest_observed *o);
/* Copies the captured streams to the runner's own stdout/stderr. */
void symtest_observed_show(const struct symtest_observed *o);
void symtest_observed_free(struct symtest_observed *o);

/* Writes DIR/TEST/ from `n` runs of the same test: each stream the runs
 * agree on, and `not-compared` naming those they do not (and why).
 * `programs`: the test is a whole program (its files are recorded).
 * 0 on success. */
int symtest_record(const char *dir, const char *test, const struct symtest_observed *runs, unsigned n,
                   int program);

/* Compares a run with DIR/TEST/: 1 and `why` (which stream, the first
 * difference, expected and actual excerpts) when something differs, 0 when
 * all agree, -1 when nothing is recorded for the test. With `exit_only`, only
 * the exit status is compared. */
int symtest_compare(const char *dir, const char *test, const struct symtest_observed *o, int exit_only,
                    char *why, size_t size);

/* The `not-compared` note of DIR/TEST/, or "" (static buffer). */
const char *symtest_not_compared(const char *dir, const char *test);

#endif
