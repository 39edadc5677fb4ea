/*
 * json_lite.c - a validating parser for a JSON subset: objects, arrays,
 * strings with simple escapes, integers, true/false/null.  Nesting is
 * tracked on an explicit stack of container kinds instead of recursion.
 * Counts values by type.
 *
 * Planted bug: the nesting limit is checked after the push, so the
 * (MAX_DEPTH+1)-th open bracket writes one slot past the stack.
 */
#include "symtest.h"

#define MAX_DEPTH 3
#define INPUT_LEN 10

enum kind { K_OBJECT, K_ARRAY };

struct parser {
  const char *s;
  int n;
  int pos;
  int depth;
  enum kind *stack; /* MAX_DEPTH entries, owned by the caller */
  int counts[6]; /* object, array, string, number, literal, member */
};

static int peek(struct parser *p) { return p->pos < p->n ? (unsigned char)p->s[p->pos] : -1; }

static void skip_ws(struct parser *p) {
  while (p->pos < p->n) {
    char c = p->s[p->pos];
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
      break;
    p->pos++;
  }
}

static int expect_word(struct parser *p, const char *w) {
  while (*w) {
    if (peek(p) != *w)
      return 0;
    p->pos++;
    w++;
  }
  return 1;
}

static int parse_string(struct parser *p) {
  p->pos++; /* opening quote */
  for (;;) {
    int c = peek(p);
    if (c < 0 || c == '\n')
      return 0;
    p->pos++;
    if (c == '"')
      return 1;
    if (c == '\\') {
      int e = peek(p);
      if (e != '"' && e != '\\' && e != 'n' && e != 't' && e != '/')
        return 0;
      p->pos++;
    }
  }
}

static int parse_number(struct parser *p) {
  int digits = 0;
  if (peek(p) == '-')
    p->pos++;
  if (peek(p) == '0') {
    p->pos++;
    return peek(p) < '0' || peek(p) > '9';
  }
  while (peek(p) >= '0' && peek(p) <= '9') {
    p->pos++;
    digits++;
  }
  return digits > 0;
}

static int push(struct parser *p, enum kind k) {
  p->stack[p->depth] = k; // EXPECT-ERROR: ptr
  p->depth++;
  if (p->depth > MAX_DEPTH) /* bug: checked after the write */
    return 0;
  return 1;
}

/* Returns 1 if the whole input is one valid value. */
static int json_validate(struct parser *p) {
  int expect_value = 1; /* a value is required next */
  for (;;) {
    int c;
    skip_ws(p);
    c = peek(p);
    if (expect_value) {
      if (c == '{' || c == '[') {
        if (!push(p, c == '{' ? K_OBJECT : K_ARRAY))
          return 0;
        p->counts[c == '{' ? 0 : 1]++;
        p->pos++;
        skip_ws(p);
        if (peek(p) == (c == '{' ? '}' : ']')) {
          p->pos++;
          p->depth--;
          expect_value = 0;
          goto after_value;
        }
        if (c == '{') {
          if (peek(p) != '"' || !parse_string(p))
            return 0;
          skip_ws(p);
          if (peek(p) != ':')
            return 0;
          p->pos++;
          p->counts[5]++;
        }
        continue;
      }
      if (c == '"') {
        if (!parse_string(p))
          return 0;
        p->counts[2]++;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (!parse_number(p))
          return 0;
        p->counts[3]++;
      } else if (c == 't') {
        if (!expect_word(p, "true"))
          return 0;
        p->counts[4]++;
      } else if (c == 'f') {
        if (!expect_word(p, "false"))
          return 0;
        p->counts[4]++;
      } else if (c == 'n') {
        if (!expect_word(p, "null"))
          return 0;
        p->counts[4]++;
      } else {
        return 0;
      }
      expect_value = 0;
    }
  after_value:
    skip_ws(p);
    if (p->depth == 0)
      return peek(p) < 0;
    c = peek(p);
    if (c == ',') {
      p->pos++;
      if (p->stack[p->depth - 1] == K_OBJECT) {
        skip_ws(p);
        if (peek(p) != '"' || !parse_string(p))
          return 0;
        skip_ws(p);
        if (peek(p) != ':')
          return 0;
        p->pos++;
        p->counts[5]++;
      }
      expect_value = 1;
    } else if (c == ']' && p->stack[p->depth - 1] == K_ARRAY) {
      p->pos++;
      p->depth--;
    } else if (c == '}' && p->stack[p->depth - 1] == K_OBJECT) {
      p->pos++;
      p->depth--;
    } else {
      return 0;
    }
  }
}

int main(void) {
  char text[INPUT_LEN];
  struct parser p;
  enum kind stack[MAX_DEPTH];
  int i, ok;
  symtest_make_symbolic(text, sizeof text, "json");
  p.s = text;
  p.n = INPUT_LEN;
  for (i = 0; i < INPUT_LEN; i++)
    if (text[i] == '\0') {
      p.n = i;
      break;
    }
  p.pos = 0;
  p.depth = 0;
  p.stack = stack;
  for (i = 0; i < 6; i++)
    p.counts[i] = 0;
  ok = json_validate(&p);
  if (!ok)
    return 1;
  return p.counts[0] + p.counts[1] > 0 ? 2 : 0;
}
