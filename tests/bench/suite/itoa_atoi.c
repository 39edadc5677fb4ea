/*
 * itoa_atoi.c - integer <-> text conversions: a strtol-like parser with
 * base prefixes (0x, 0b, 0), optional sign, leading whitespace, k/M/G
 * scale suffixes and overflow detection; itoa in any base 2..36; and a thousands-separator
 * formatter.  Parsing what was formatted must give the value back.
 *
 * Planted bug: the k/M suffix scales the parsed value without a range
 * check, so "3000M" overflows.
 */
#include "symtest.h"

#define TEXT_LEN 7
#define INT_MAX_ 2147483647
#define INT_MIN_ (-INT_MAX_ - 1)

enum parse_status { P_OK, P_EMPTY, P_TRAILING, P_RANGE };

static int is_space(char c) { return c == ' ' || c == '\t'; }

static int digit_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

static enum parse_status parse_int(const char *s, int n, int *out) {
  int i = 0, neg = 0, base = 10, digits = 0;
  long long v = 0;
  while (i < n && is_space(s[i]))
    i++;
  if (i < n && (s[i] == '-' || s[i] == '+')) {
    neg = s[i] == '-';
    i++;
  }
  if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  } else if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B')) {
    base = 2;
    i += 2;
  } else if (i < n && s[i] == '0') {
    base = 8;
  }
  while (i < n) {
    int d = digit_value(s[i]);
    if (d >= base)
      break;
    v = v * base + d;
    if (v > (long long)INT_MAX_ + neg)
      return P_RANGE;
    digits++;
    i++;
  }
  if (digits == 0)
    return P_EMPTY;
  *out = neg ? (int)-v : (int)v;
  if (i < n && (s[i] == 'k' || s[i] == 'M' || s[i] == 'G')) {
    int scale = s[i] == 'k' ? 1000 : s[i] == 'M' ? 1000000 : 1000000000;
    *out = *out * scale; // EXPECT-ERROR: overflow
    i++;
  }
  if (i != n)
    return P_TRAILING;
  return P_OK;
}

/* Writes value in base into buf (at least 34 bytes); returns the length. */
static int itoa_base(int value, int base, char *buf) {
  char tmp[34];
  int n = 0, len = 0;
  unsigned u = value < 0 ? 0u - (unsigned)value : (unsigned)value;
  do {
    unsigned d = u % (unsigned)base;
    tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    u /= (unsigned)base;
  } while (u);
  if (value < 0)
    buf[len++] = '-';
  while (n > 0)
    buf[len++] = tmp[--n];
  buf[len] = '\0';
  return len;
}

/* 1234567 -> "1,234,567" */
static int format_grouped(int value, char *buf) {
  char tmp[16];
  int n = 0, len = 0;
  unsigned v = value < 0 ? 0u - (unsigned)value : (unsigned)value;
  do {
    if (n % 4 == 3)
      tmp[n++] = ',';
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  if (value < 0)
    buf[len++] = '-';
  while (n > 0)
    buf[len++] = tmp[--n];
  buf[len] = '\0';
  return len;
}

static int text_len(const char *s) {
  int n = 0;
  while (s[n])
    n++;
  return n;
}

int main(void) {
  char text[TEXT_LEN];
  char buf[40];
  int value, back, base;
  enum parse_status st;
  int n = symtest_range(0, TEXT_LEN + 1, "len");
  symtest_make_symbolic(text, sizeof text, "text");
  st = parse_int(text, n, &value);
  if (st != P_OK)
    return (int)st;
  for (base = 16; base >= 10; base -= 6) {
    char pref[40];
    int k = 0, j;
    n = itoa_base(value, base, buf);
    symtest_assert(n == text_len(buf));
    if (buf[0] == '-')
      pref[k++] = '-';
    if (base == 16) {
      pref[k++] = '0';
      pref[k++] = 'x';
    }
    for (j = buf[0] == '-' ? 1 : 0; j < n; j++)
      pref[k++] = buf[j];
    symtest_assert(parse_int(pref, k, &back) == P_OK && back == value);
  }
  n = format_grouped(value, buf);
  return n > 9 ? 1 : 0;
}
