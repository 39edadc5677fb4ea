/*
 * date_parse.c - parses ISO 8601 calendar dates (YYYY-MM-DD, optionally
 * followed by THH:MM), validates them (month lengths, leap years, hours
 * and minutes), and computes the day of the year, the day of the week
 * (Zeller's congruence) and the ISO week number.
 *
 * EXPECT-NO-ERRORS
 */
#include "symtest.h"

#define DATE_LEN 16

struct date {
  int year, month, day;
  int hour, minute;
  int has_time;
};

enum date_error { D_OK, D_SYNTAX, D_MONTH, D_DAY, D_TIME };

static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

static int is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in_month(int y, int m) {
  if (m == 2 && is_leap(y))
    return 29;
  return month_days[m - 1];
}

/* Reads exactly `width` digits at s[*pos]. */
static int read_digits(const char *s, int *pos, int width, int *out) {
  int v = 0, i;
  for (i = 0; i < width; i++) {
    char c = s[*pos + i];
    if (c < '0' || c > '9')
      return 0;
    v = v * 10 + (c - '0');
  }
  *pos += width;
  *out = v;
  return 1;
}

static enum date_error date_parse(const char *s, int n, struct date *d) {
  int pos = 0;
  d->has_time = 0;
  d->hour = d->minute = 0;
  if (n < 10)
    return D_SYNTAX;
  if (!read_digits(s, &pos, 4, &d->year) || s[pos++] != '-')
    return D_SYNTAX;
  if (!read_digits(s, &pos, 2, &d->month) || s[pos++] != '-')
    return D_SYNTAX;
  if (!read_digits(s, &pos, 2, &d->day))
    return D_SYNTAX;
  if (d->month < 1 || d->month > 12)
    return D_MONTH;
  if (d->day < 1 || d->day > days_in_month(d->year, d->month))
    return D_DAY;
  if (pos == n)
    return D_OK;
  if (n - pos != 6 || (s[pos] != 'T' && s[pos] != ' '))
    return D_SYNTAX;
  pos++;
  if (!read_digits(s, &pos, 2, &d->hour) || s[pos++] != ':' ||
      !read_digits(s, &pos, 2, &d->minute))
    return D_SYNTAX;
  if (d->hour > 23 || d->minute > 59)
    return D_TIME;
  d->has_time = 1;
  return D_OK;
}

static int day_of_year(const struct date *d) {
  int m, n = d->day;
  for (m = 1; m < d->month; m++)
    n += days_in_month(d->year, m);
  return n;
}

/* 0 = Monday ... 6 = Sunday */
static int day_of_week(const struct date *d) {
  int y = d->year, m = d->month, q = d->day, k, j, h;
  if (m < 3) {
    m += 12;
    y -= 1;
  }
  k = y % 100;
  j = y / 100;
  h = (q + (13 * (m + 1)) / 5 + k + k / 4 + j / 4 + 5 * j) % 7; /* 0 = Saturday */
  return (h + 5) % 7;
}

static int iso_week(const struct date *d) {
  int doy = day_of_year(d);
  int dow = day_of_week(d);
  int week = (doy - dow + 9) / 7;
  if (week < 1)
    return 52 + (day_of_week(&(struct date){d->year - 1, 12, 31, 0, 0, 0}) < 3);
  if (week == 53) {
    int days = is_leap(d->year) ? 366 : 365;
    if (days - doy < 3 - dow)
      return 1;
  }
  return week;
}

int main(void) {
  char s[DATE_LEN];
  struct date d;
  enum date_error e;
  int n = symtest_range(9, DATE_LEN + 1, "len");
  symtest_make_symbolic(s, sizeof s, "date");
  e = date_parse(s, n, &d);
  switch (e) {
  case D_SYNTAX:
    return 1;
  case D_MONTH:
    return 2;
  case D_DAY:
    return 3;
  case D_TIME:
    return 4;
  case D_OK:
    break;
  }
  if (day_of_year(&d) == 60 && !is_leap(d.year))
    return 5;
  if (day_of_week(&d) == 6 && d.has_time)
    return 6;
  return iso_week(&d) == 1 ? 7 : 0;
}
