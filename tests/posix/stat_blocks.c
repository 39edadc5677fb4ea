/* A symbolic file's block size and block count are what a regular file of
 * its size has natively (4 KiB blocks): a program that decides how to skip
 * input by them (GNU od seeks past an offset only in a file larger than its
 * block size) takes the same path in the engine and natively. */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  struct stat st;
  if (fstat(0, &st) != 0)
    return 3;
  char c;
  if (st.st_blksize < st.st_size) {
    if (lseek(0, 1, SEEK_CUR) != 1)
      return 4;
    puts("seeked");
  } else if (read(0, &c, 1) != 1) {
    return 5;
  }
  printf("blksize %ld blocks %ld\n", (long)st.st_blksize, (long)st.st_blocks);
  return st.st_blocks == 8 ? 0 : 1;
}
