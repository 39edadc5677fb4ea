/* A pointer to a local used after its function returned.
 *
 * The engine drops a returning frame's stack objects (a state does not carry
 * a record per call it ever made), also when the call allocated a heap
 * object after its locals: stack objects have their own region and vector.
 * An access through a dangling pointer then lands in no object, a `ptr`
 * error in both cases.
 *
 * Paths: `c == 1` forks (error path), `c == 2` forks (error path) and the
 * rest returns: 2 errors + 1 normal = 3.
 *
 * Natively the read returns whatever the stack holds (no check catches a
 * use after return without a fake stack), so the tests are not replayed. */
// NO-NATIVE-REPLAY
#include <stdlib.h>
#include "symtest.h"

static int *leaked;

static void keep_local(int v) {
  int x = v;
  leaked = &x;
}

static void *keep_local_then_allocate(int v) {
  int x = v;
  leaked = &x;
  return malloc(8);
}

int main(void) {
  int c = symtest_range(0, 3, "c");
  if (c == 1) {
    keep_local(5);
    return *leaked; // EXPECT-ERROR: ptr
  }
  if (c == 2) {
    void *heap = keep_local_then_allocate(6);
    int v = *leaked; // EXPECT-ERROR: ptr
    free(heap);
    return v;
  }
  return 0;
}
// EXPECT-PATHS: 3
