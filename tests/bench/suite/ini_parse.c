/*
 * ini_parse.c - a small INI parser: [sections], key = value pairs,
 * ; and # comments, blank lines, whitespace trimming, quoted values and
 * line continuations with a trailing backslash.  Entries are stored in a
 * fixed table; lookups are case-insensitive.
 *
 * Harness: a symbolic 16-byte document (NUL-terminated), parsed, then two
 * lookups whose names are partly symbolic.
 *
 * EXPECT-NO-ERRORS
 */
#include "symtest.h"

#define MAX_ENTRIES 8
#define MAX_NAME 12
#define MAX_VALUE 16
#define DOC_LEN 16

struct entry {
  char section[MAX_NAME];
  char key[MAX_NAME];
  char value[MAX_VALUE];
};

struct ini {
  struct entry entries[MAX_ENTRIES];
  int count;
  int errors;
  int line;
};

enum ini_status { INI_OK, INI_BAD_SECTION, INI_NO_EQUALS, INI_TOO_LONG, INI_FULL };

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int to_lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

static int name_eq(const char *a, const char *b) {
  while (*a && *b) {
    if (to_lower((unsigned char)*a) != to_lower((unsigned char)*b))
      return 0;
    a++;
    b++;
  }
  return *a == *b;
}

/* Copies [start, end) trimmed into dst (cap bytes with the NUL). */
static int copy_trimmed(char *dst, int cap, const char *start, const char *end) {
  int n = 0;
  while (start < end && is_space(*start))
    start++;
  while (end > start && is_space(end[-1]))
    end--;
  if (end - start >= 2 && *start == '"' && end[-1] == '"') {
    start++;
    end--;
  }
  if (end - start >= cap)
    return -1;
  while (start < end)
    dst[n++] = *start++;
  dst[n] = '\0';
  return n;
}

static enum ini_status parse_line(struct ini *ini, char *section, const char *s,
                                  const char *end) {
  const char *p = s, *eq;
  struct entry *e;
  while (p < end && is_space(*p))
    p++;
  if (p == end || *p == ';' || *p == '#')
    return INI_OK;
  if (*p == '[') {
    const char *close = p + 1;
    while (close < end && *close != ']')
      close++;
    if (close == end)
      return INI_BAD_SECTION;
    if (copy_trimmed(section, MAX_NAME, p + 1, close) <= 0)
      return INI_BAD_SECTION;
    return INI_OK;
  }
  eq = p;
  while (eq < end && *eq != '=' && *eq != ':')
    eq++;
  if (eq == end)
    return INI_NO_EQUALS;
  if (ini->count == MAX_ENTRIES)
    return INI_FULL;
  e = &ini->entries[ini->count];
  if (copy_trimmed(e->key, MAX_NAME, p, eq) <= 0)
    return INI_NO_EQUALS;
  if (copy_trimmed(e->value, MAX_VALUE, eq + 1, end) < 0)
    return INI_TOO_LONG;
  {
    int i = 0;
    while (section[i]) {
      e->section[i] = section[i];
      i++;
    }
    e->section[i] = '\0';
  }
  ini->count++;
  return INI_OK;
}

static void ini_parse(struct ini *ini, const char *doc) {
  char section[MAX_NAME];
  char joined[DOC_LEN + 1];
  const char *p = doc;
  section[0] = '\0';
  ini->count = 0;
  ini->errors = 0;
  ini->line = 0;
  while (*p) {
    int n = 0;
    /* gather one logical line, joining backslash continuations */
    while (*p && *p != '\n') {
      if (*p == '\\' && p[1] == '\n') {
        p += 2;
        ini->line++;
        continue;
      }
      joined[n++] = *p++;
    }
    if (*p == '\n')
      p++;
    ini->line++;
    if (parse_line(ini, section, joined, joined + n) != INI_OK)
      ini->errors++;
  }
}

static const char *ini_get(const struct ini *ini, const char *section, const char *key) {
  int i;
  for (i = ini->count - 1; i >= 0; i--)
    if (name_eq(ini->entries[i].section, section) && name_eq(ini->entries[i].key, key))
      return ini->entries[i].value;
  return 0;
}

static int parse_bool(const char *v) {
  if (!v)
    return -1;
  if (name_eq(v, "yes") || name_eq(v, "on") || name_eq(v, "1"))
    return 1;
  if (name_eq(v, "no") || name_eq(v, "off") || name_eq(v, "0"))
    return 0;
  return -1;
}

int main(void) {
  char doc[DOC_LEN + 1];
  char key[3];
  struct ini ini;
  const char *v;
  int result = 0;
  symtest_make_symbolic(doc, DOC_LEN, "doc");
  doc[DOC_LEN] = '\0';
  symtest_make_symbolic(key, 2, "key");
  key[2] = '\0';
  ini_parse(&ini, doc);
  if (ini.errors > 0)
    result |= 1;
  v = ini_get(&ini, "", key);
  if (v)
    result |= 2;
  switch (parse_bool(ini_get(&ini, "a", "on"))) {
  case 1:
    result |= 4;
    break;
  case 0:
    result |= 8;
    break;
  default:
    break;
  }
  return result;
}
