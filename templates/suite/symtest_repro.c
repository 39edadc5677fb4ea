/*
 * symtest_repro.c - a failed test's input, printed so a developer can run it by
 * hand: a shell command for a whole program (files written with printf, stdin
 * piped, arguments quoted as shell words), the symbolic objects' values for a
 * harness.  Part of a regression suite emitted by `cargo symtest`.
 */
#define _XOPEN_SOURCE 700
#include "symtest_tests.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_opt(const char *a, const char *name) {
  if (a[0] != '-')
    return 0;
  a += a[1] == '-' ? 2 : 1;
  return strcmp(a, name) == 0;
}

/* ---- the input of a test as a shell command ------------------------------ */

/* `s` (`n` bytes) as one shell word: 'plain', or $'with\nescapes'. */
static void shell_word(const unsigned char *s, size_t n, FILE *f) {
  size_t i;
  int plain = 1, bare = n > 0;
  for (i = 0; i < n; i++) {
    if (s[i] < 0x20 || s[i] >= 0x7f)
      plain = 0;
    if (!(s[i] < 0x80 && (isalnum(s[i]) || strchr("_@%+=:,./-", s[i]))) || s[i] == 0)
      bare = 0;
  }
  if (bare) {
    fwrite(s, 1, n, f);
    return;
  }
  if (plain) {
    fputc('\'', f);
    for (i = 0; i < n; i++) {
      if (s[i] == '\'')
        fputs("'\\''", f);
      else
        fputc(s[i], f);
    }
    fputc('\'', f);
    return;
  }
  fputs("$'", f);
  for (i = 0; i < n; i++) {
    if (s[i] == '\n')
      fputs("\\n", f);
    else if (s[i] == '\t')
      fputs("\\t", f);
    else if (s[i] == '\'' || s[i] == '\\')
      fprintf(f, "\\%c", s[i]);
    else if (s[i] < 0x20 || s[i] >= 0x7f)
      fprintf(f, "\\%03o", s[i]);
    else
      fputc(s[i], f);
  }
  fputc('\'', f);
}

/* `printf 'bytes'` (octal escapes: POSIX printf). */
static void printf_bytes(const unsigned char *s, size_t n, FILE *f) {
  size_t i;
  fputs("printf '", f);
  for (i = 0; i < n; i++) {
    if (s[i] == '\n')
      fputs("\\n", f);
    else if (s[i] == '\'' || s[i] == '\\' || s[i] == '%' || s[i] < 0x20 || s[i] >= 0x7f)
      fprintf(f, "\\%03o", s[i]);
    else
      fputc(s[i], f);
  }
  fputc('\'', f);
}

static const struct symtest_object *object_named(const struct symtest_case *c, const char *name, unsigned nth) {
  unsigned i;
  for (i = 0; i < c->num_objects; i++)
    if (strcmp(c->objects[i].name, name) == 0 && nth-- == 0)
      return &c->objects[i];
  return NULL;
}

/* The test's input as a command that runs it by hand (a whole program), or
 * the values of its symbolic objects (a harness); `injected`: the shim's spec
 * of the failures it injects, or NULL. */
void symtest_print_repro(const struct symtest_case *c, const char *injected, FILE *f) {
  unsigned i;
  if (!symtest_target_is_program) {
    fputs("    inputs:", f);
    for (i = 0; i < c->num_objects; i++) {
      const struct symtest_object *o = &c->objects[i];
      unsigned k;
      fprintf(f, " %s = ", o->name);
      for (k = 0; k < o->size && k < 32; k++)
        fprintf(f, "%s%02x", k ? "" : "0x", o->bytes[k]);
      if (o->size > 32)
        fputs("...", f);
      if (o->size == 0)
        fputs("(empty)", f);
      if (i + 1 < c->num_objects)
        fputc(';', f);
    }
    fputc('\n', f);
    return;
  }
  {
    const struct symtest_object *in = object_named(c, "stdin", 0);
    unsigned k, sym_args = 0, n_args = 0;
    char name[16];
    int files = 0;
    const char *const *pa = SYMTEST_ARGS_OF(c);
    fputs("    reproduce: ", f);
    for (k = 0; pa[k]; k++)
      if (is_opt(pa[k], "sym-files") && pa[k + 1])
        files = atoi(pa[k + 1]);
    for (i = 0; (int)i < files && i < 26; i++) {
      const struct symtest_object *o;
      snprintf(name, sizeof name, "%c-data", 'A' + i);
      if ((o = object_named(c, name, 0))) {
        printf_bytes(o->bytes, o->size, f);
        fprintf(f, " > %c; ", 'A' + i);
      }
      /* The mode the test recorded (st_mode at offset 24 of its stat), when
       * a shell's umask 022 would not give it. */
      snprintf(name, sizeof name, "%c-data-stat", 'A' + i);
      if ((o = object_named(c, name, 0)) && o->size >= 28) {
        unsigned mode = ((unsigned)o->bytes[24] | (unsigned)o->bytes[25] << 8) & 07777;
        if (mode != 0644)
          fprintf(f, "chmod %o %c; ", mode, 'A' + i);
      }
    }
    if (in) {
      printf_bytes(in->bytes, in->size, f);
      fputs(" | ", f);
    }
    fputs(symtest_program_name, f);
    for (k = 0; pa[k]; k++) {
      const char *a = pa[k];
      const struct symtest_object *o;
      if (is_opt(a, "sym-arg") && pa[k + 1]) {
        k++;
        snprintf(name, sizeof name, "arg%02u", sym_args++);
        if ((o = object_named(c, name, 0))) {
          size_t len = 0;
          while (len < o->size && o->bytes[len])
            len++;
          fputc(' ', f);
          shell_word(o->bytes, len, f);
        }
      } else if (is_opt(a, "sym-args") && pa[k + 1] && pa[k + 2] &&
                 pa[k + 3]) {
        int hi = atoi(pa[k + 2]), count = 0, j;
        const struct symtest_object *n = object_named(c, "n_args", n_args++);
        k += 3;
        if (n && n->size == 4)
          memcpy(&count, n->bytes, 4);
        for (j = 0; j < hi; j++) {
          snprintf(name, sizeof name, "arg%02u", sym_args++);
          if (j < count && (o = object_named(c, name, 0))) {
            size_t len = 0;
            while (len < o->size && o->bytes[len])
              len++;
            fputc(' ', f);
            shell_word(o->bytes, len, f);
          }
        }
      } else if (is_opt(a, "sym-files") && pa[k + 1] && pa[k + 2]) {
        k += 2;
      } else if ((is_opt(a, "sym-stdin") || is_opt(a, "max-fail")) && pa[k + 1]) {
        k++;
      } else if (!is_opt(a, "sym-stdout")) {
        fputc(' ', f);
        shell_word((const unsigned char *)a, strlen(a), f);
      }
    }
    if (injected && injected[0])
      fprintf(f, "   (with injected failures %s: only the suite replays them)", injected);
    fputc('\n', f);
  }
}

