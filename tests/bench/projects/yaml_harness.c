/* libyaml: parse a symbolic YAML stream, event by event. */
#include "symtest.h"
#include <yaml.h>

int main(void) {
  unsigned char text[8];
  symtest_make_symbolic(text, sizeof text, "yaml");
  yaml_parser_t parser;
  yaml_event_t event;
  if (!yaml_parser_initialize(&parser))
    return 2;
  yaml_parser_set_input_string(&parser, text, sizeof text);
  int events = 0;
  for (;;) {
    if (!yaml_parser_parse(&parser, &event))
      break;
    int done = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    events++;
    if (done)
      break;
  }
  yaml_parser_delete(&parser);
  return events;
}
