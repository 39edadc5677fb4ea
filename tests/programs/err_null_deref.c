/* Null pointer dereference at the end of a linked list.
 *
 * Paths: the loop forks on its exit for steps = 0, 1, 2 (3 paths); with
 * steps == 2 the pointer is NULL when dereferenced: 2 normal + 1 error. */
#include <stddef.h>
#include "symtest.h"

struct node {
  int value;
  struct node *next;
};

int main(void) {
  struct node second = {2, NULL};
  struct node first = {1, &second};
  int steps = symtest_range(0, 3, "steps");
  struct node *p = &first;
  for (int k = 0; k < steps; k++)
    p = p->next;
  return p->value; // EXPECT-ERROR: ptr
}
// EXPECT-PATHS: 3
