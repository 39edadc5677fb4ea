/*
 * csv_parse.c - RFC 4180 style CSV reader: comma-separated fields, quoted
 * fields with doubled quotes, CR LF or LF line ends.  Each record's fields
 * are recorded as (offset, length) spans in a fixed array; numeric columns
 * are summed.
 *
 * Planted bug: the bound check on the field array is off by one, so a
 * record with more than MAX_FIELDS fields writes one span past the array.
 */
#include "symtest.h"
#include <stdlib.h>

#define MAX_FIELDS 4
#define INPUT_LEN 14

struct span {
  int start;
  int len;
  int quoted;
};

struct record {
  struct span *fields; /* MAX_FIELDS entries */
  int nfields;
};

struct csv_stats {
  int records;
  int fields;
  int quoted;
  int numeric_sum;
  int bad;
};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Parses a field of digits; returns -1 if it is not a number. */
static int field_number(const char *text, const struct span *f) {
  int i, v = 0;
  if (f->len == 0 || f->len > 4)
    return -1;
  for (i = 0; i < f->len; i++) {
    char c = text[f->start + i];
    if (!is_digit(c))
      return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

static void add_field(struct record *r, int start, int len, int quoted) {
  if (r->nfields > MAX_FIELDS) /* bug: should be >= */
    return;
  r->fields[r->nfields].start = start; // EXPECT-ERROR: ptr
  r->fields[r->nfields].len = len;
  r->fields[r->nfields].quoted = quoted;
  r->nfields++;
}

/* Reads one record starting at *pos; returns 0 at end of input, -1 on a
 * malformed quoted field. */
static int read_record(const char *text, int n, int *pos, struct record *r) {
  int i = *pos;
  r->nfields = 0;
  if (i >= n)
    return 0;
  for (;;) {
    int start = i, quoted = 0;
    if (i < n && text[i] == '"') {
      quoted = 1;
      i++;
      start = i;
      for (;;) {
        if (i >= n)
          return -1;
        if (text[i] == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            i += 2;
            continue;
          }
          break;
        }
        i++;
      }
      add_field(r, start, i - start, quoted);
      i++; /* closing quote */
      if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
        return -1;
    } else {
      while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
        i++;
      add_field(r, start, i - start, quoted);
    }
    if (i < n && text[i] == ',') {
      i++;
      continue;
    }
    if (i < n && text[i] == '\r')
      i++;
    if (i < n && text[i] == '\n')
      i++;
    break;
  }
  *pos = i;
  return 1;
}

static void csv_scan(const char *text, int n, struct csv_stats *st) {
  int pos = 0;
  struct record r;
  r.fields = malloc(MAX_FIELDS * sizeof *r.fields);
  if (!r.fields)
    return;
  st->records = st->fields = st->quoted = st->numeric_sum = st->bad = 0;
  for (;;) {
    int k, rc = read_record(text, n, &pos, &r);
    if (rc == 0)
      break;
    if (rc < 0) {
      st->bad++;
      break;
    }
    st->records++;
    st->fields += r.nfields;
    for (k = 0; k < r.nfields; k++) {
      int v = field_number(text, &r.fields[k]);
      if (r.fields[k].quoted)
        st->quoted++;
      if (v >= 0)
        st->numeric_sum += v;
    }
  }
  free(r.fields);
}

int main(void) {
  char text[INPUT_LEN];
  struct csv_stats st;
  int n = symtest_range(0, INPUT_LEN + 1, "len");
  symtest_make_symbolic(text, sizeof text, "text");
  st.bad = 0;
  st.numeric_sum = 0;
  st.records = 0;
  csv_scan(text, n, &st);
  if (st.bad)
    return 1;
  if (st.numeric_sum > 100)
    return 2;
  return st.records > 1 ? 3 : 0;
}
