/*
 * url_parse.c - splits a URL into scheme, host, port, path, query and
 * fragment (scheme://host:port/path?query#fragment), validates each part,
 * decodes %XX escapes in the path, counts query parameters and hashes
 * the query.
 *
 * Planted bug: the query string's hash (used to key a cache) is computed
 * in a signed int (sdbm), so a query of three or more characters can
 * overflow.
 */
#include "symtest.h"

#define URL_LEN 10

struct url {
  int scheme_len;
  int host_start, host_len;
  int port;
  int path_start, path_len;
  int query_params;
  int query_hash;
  int has_fragment;
  char path[URL_LEN + 1];
};

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static int host_char(char c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '.'; }

/* Decodes src[0..n) into dst; returns the decoded length or -1. */
static int percent_decode(char *dst, const char *src, int n) {
  int i = 0, o = 0;
  while (i < n) {
    if (src[i] == '%') {
      int hi, lo;
      if (i + 2 >= n)
        return -1;
      hi = hex_value(src[i + 1]);
      lo = hex_value(src[i + 2]);
      if (hi < 0 || lo < 0)
        return -1;
      dst[o++] = (char)(hi * 16 + lo);
      i += 3;
    } else {
      dst[o++] = src[i++];
    }
  }
  dst[o] = '\0';
  return o;
}

static int parse_port(const char *s, int n, int *pos) {
  int port = 0, digits = 0;
  while (*pos < n && is_digit(s[*pos])) {
    port = port * 10 + (s[*pos] - '0');
    if (port > 65535)
      return -1;
    (*pos)++;
    digits++;
  }
  if (digits == 0)
    return -1;
  return port;
}

/* Returns 0 on success, or a negative error code naming the bad part. */
static int url_parse(const char *s, int n, struct url *u) {
  int i = 0;
  u->port = -1;
  u->query_params = 0;
  u->query_hash = 0;
  u->has_fragment = 0;
  u->path_len = 0;
  u->path[0] = '\0';
  while (i < n && (is_alpha(s[i]) || (i > 0 && (is_digit(s[i]) || s[i] == '+'))))
    i++;
  if (i == 0 || i + 3 > n || s[i] != ':' || s[i + 1] != '/' || s[i + 2] != '/')
    return -1;
  u->scheme_len = i;
  i += 3;
  u->host_start = i;
  while (i < n && host_char(s[i]))
    i++;
  u->host_len = i - u->host_start;
  if (u->host_len == 0)
    return -2;
  if (i < n && s[i] == ':') {
    i++;
    u->port = parse_port(s, n, &i);
    if (u->port < 0)
      return -3;
  }
  u->path_start = i;
  if (i < n && s[i] == '/') {
    while (i < n && s[i] != '?' && s[i] != '#')
      i++;
    u->path_len = percent_decode(u->path, s + u->path_start, i - u->path_start);
    if (u->path_len < 0)
      return -4;
  }
  if (i < n && s[i] == '?') {
    i++;
    u->query_params = 1;
    while (i < n && s[i] != '#') {
      if (s[i] == '&')
        u->query_params++;
      u->query_hash = u->query_hash * 65599 + s[i]; /* sdbm */ // EXPECT-ERROR: overflow
      i++;
    }
  }
  if (i < n && s[i] == '#') {
    u->has_fragment = 1;
    i = n;
  }
  return i == n ? 0 : -5;
}

static int default_port(const char *s, const struct url *u) {
  if (u->scheme_len == 4 && s[0] == 'h' && s[3] == 'p')
    return 80;
  if (u->scheme_len == 3 && s[0] == 'f')
    return 21;
  return 0;
}

int main(void) {
  char s[URL_LEN];
  struct url u;
  int rc, port;
  int n = symtest_range(1, URL_LEN + 1, "len");
  symtest_make_symbolic(s, sizeof s, "url");
  rc = url_parse(s, n, &u);
  if (rc < 0)
    return -rc;
  port = u.port >= 0 ? u.port : default_port(s, &u);
  if (port == 443)
    return 10;
  return u.query_params + u.has_fragment;
}
