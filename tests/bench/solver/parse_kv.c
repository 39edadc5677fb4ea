/* A configuration-line parser: `key=value` pairs separated by ';' in a
 * symbolic 12-byte line. Keys are looked up in a small table with a
 * hand-written comparison, values are decimal numbers with range checks.
 * Most branches test one byte, so most constraints are independent of
 * each other, as in the parsers of real command-line tools. */
#include "symtest.h"

#define LEN 12

static const char *const keys[] = {"port", "mode", "ttl"};

static int key_is(const char *s, int n, const char *key) {
  int i = 0;
  for (; i < n; i++)
    if (key[i] == '\0' || s[i] != key[i])
      return 0;
  return key[i] == '\0';
}

int main(void) {
  char line[LEN + 1];
  symtest_make_symbolic(line, LEN, "line");
  line[LEN] = '\0';
  int port = 0, mode = 0, ttl = 64;
  int i = 0;
  while (line[i] != '\0') {
    int start = i;
    while (line[i] != '\0' && line[i] != '=' && line[i] != ';')
      i++;
    if (line[i] != '=')
      return 1; /* a key without a value */
    int klen = i - start;
    i++;
    int v = 0, digits = 0;
    while (line[i] >= '0' && line[i] <= '9' && digits < 4) {
      v = v * 10 + (line[i] - '0');
      i++;
      digits++;
    }
    if (digits == 0)
      return 2;
    int k = -1;
    for (int j = 0; j < 3; j++)
      if (key_is(line + start, klen, keys[j]))
        k = j;
    if (k == 0) {
      if (v == 0 || v > 1023)
        return 3;
      port = v;
    } else if (k == 1) {
      if (v > 7)
        return 4;
      mode = v;
    } else if (k == 2) {
      ttl = v;
    } else {
      return 5; /* unknown key */
    }
    if (line[i] == ';')
      i++;
    else if (line[i] != '\0')
      return 6;
  }
  return (port + mode + ttl) & 0x7f;
}
