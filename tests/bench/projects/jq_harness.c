/* libjq: parse a symbolic JSON text with jq's own parser (jv_parse). */
#include "symtest.h"
#include "jv.h"

int main(void) {
  char text[8];
  symtest_make_symbolic(text, sizeof text, "json");
  jv v = jv_parse_sized(text, sizeof text);
  int ok = jv_is_valid(v);
  jv_free(v);
  return ok;
}
