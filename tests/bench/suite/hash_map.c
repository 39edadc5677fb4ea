/*
 * hash_map.c - an open-addressing hash map from small string keys to ints
 * with linear probing, tombstones on delete and rehashing into a table of
 * twice the size when it is 3/4 full.  A shift-xor hash.
 *
 * Harness: a symbolic sequence of operations (put/get/delete), each on the
 * next key of a fixed schedule or on the previous one again.
 *
 * Planted bug: after a rehash, `map_put` looks the slot up again only when
 * it was a tombstone; a fresh slot pointer still points into the old,
 * freed table: a use after free.
 */
#include "symtest.h"
#include <stdlib.h>

#define NOPS 6
#define KEY_MAX 3

enum slot_state { EMPTY, FULL, TOMB };

struct slot {
  char key[KEY_MAX];
  int value;
  enum slot_state state;
};

struct map {
  struct slot *slots;
  unsigned cap;
  unsigned used; /* FULL + TOMB */
  unsigned size; /* FULL */
};

static unsigned hash_key(const char *k) {
  unsigned h = 5381;
  while (*k)
    h = ((h << 5) ^ (h >> 2)) ^ (unsigned char)*k++;
  return h;
}

static int key_eq(const char *a, const char *b) {
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return *a == *b;
}

static void key_copy(char *dst, const char *src) {
  int i = 0;
  while (src[i] && i < KEY_MAX - 1) {
    dst[i] = src[i];
    i++;
  }
  dst[i] = '\0';
}

static int map_init(struct map *m, unsigned cap) {
  unsigned i;
  m->slots = malloc(cap * sizeof *m->slots);
  if (!m->slots)
    return 0;
  for (i = 0; i < cap; i++)
    m->slots[i].state = EMPTY;
  m->cap = cap;
  m->used = m->size = 0;
  return 1;
}

/* The slot holding key, or the first free slot where it would go. */
static struct slot *map_find(struct map *m, const char *key) {
  unsigned i = hash_key(key) & (m->cap - 1);
  struct slot *tomb = 0;
  for (;;) {
    struct slot *s = &m->slots[i];
    if (s->state == EMPTY)
      return tomb ? tomb : s;
    if (s->state == TOMB) {
      if (!tomb)
        tomb = s;
    } else if (key_eq(s->key, key)) {
      return s;
    }
    i = (i + 1) & (m->cap - 1);
  }
}

static int map_rehash(struct map *m) {
  struct slot *old = m->slots;
  unsigned i, old_cap = m->cap;
  if (!map_init(m, old_cap * 2))
    return 0;
  for (i = 0; i < old_cap; i++) {
    if (old[i].state == FULL) {
      struct slot *s = map_find(m, old[i].key);
      *s = old[i];
      m->used++;
      m->size++;
    }
  }
  free(old);
  return 1;
}

static int map_put(struct map *m, const char *key, int value) {
  struct slot *s = map_find(m, key);
  int reuse_tomb;
  if (s->state == FULL) {
    s->value = value;
    return 1;
  }
  reuse_tomb = s->state == TOMB;
  if ((m->used + 1) * 4 > m->cap * 3) {
    if (!map_rehash(m))
      return 0;
    if (reuse_tomb) /* bug: a fresh slot is not looked up again */
      s = map_find(m, key);
  }
  if (s->state == EMPTY) // EXPECT-ERROR: ptr
    m->used++;
  key_copy(s->key, key);
  s->value = value;
  s->state = FULL;
  m->size++;
  return 1;
}

static int map_get(struct map *m, const char *key, int *out) {
  struct slot *s = map_find(m, key);
  if (s->state != FULL)
    return 0;
  *out = s->value;
  return 1;
}

static int map_delete(struct map *m, const char *key) {
  struct slot *s = map_find(m, key);
  if (s->state != FULL)
    return 0;
  s->state = TOMB;
  m->size--;
  return 1;
}

static const char *const schedule[NOPS] = {"a", "b", "ab", "c", "ba", "d"};

int main(void) {
  unsigned char ops[NOPS][3];
  struct map m;
  int i, v, hits = 0;
  symtest_make_symbolic(ops, sizeof ops, "ops");
  if (!map_init(&m, 4))
    return 1;
  for (i = 0; i < NOPS; i++) {
    /* the i-th operation uses the i-th key of the schedule or repeats
     * the previous one */
    const char *key = (ops[i][1] & 1) ? schedule[i] : schedule[i > 0 ? i - 1 : 0];
    switch (ops[i][0] % 3) {
    case 0:
      if (!map_put(&m, key, ops[i][2]))
        return 2;
      break;
    case 1:
      if (map_get(&m, key, &v)) {
        symtest_assert(v >= 0 && v < 256);
        hits++;
      }
      break;
    default:
      if (map_delete(&m, key))
        hits += 10;
      break;
    }
  }
  free(m.slots);
  return hits;
}
