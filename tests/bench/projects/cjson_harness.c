/* cJSON: parse a symbolic JSON text, then print it back. */
#include <stdlib.h>
#include "symtest.h"
#include "cJSON.h"

int main(void) {
  char text[9];
  symtest_make_symbolic(text, sizeof text, "json");
  text[sizeof text - 1] = 0;
  cJSON *v = cJSON_Parse(text);
  if (!v)
    return 1;
  char *s = cJSON_PrintUnformatted(v);
  free(s);
  cJSON_Delete(v);
  return 0;
}
