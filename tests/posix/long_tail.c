/* Paths that are still running when the run's instruction budget ends: the
 * tests written for them record where they end when run on their inputs (a
 * long loop), or that they do not end (an endless loop). Native replay
 * compares both. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
  char c = 0;
  if (read(0, &c, 1) != 1)
    return 3;
  if (c == 'w') {
    volatile unsigned spin = 0;
    for (;;)
      spin++;
  }
  unsigned long sum = 0;
  for (unsigned long i = 0; i < 20000; i++)
    sum += i ^ (unsigned char)c;
  printf("%lu\n", sum % 1000);
  return c == 'a' ? 1 : 0;
}
