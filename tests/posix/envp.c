/* main's envp under the POSIX runtime (KLEE's test/Runtime/POSIX/Envp.c):
 * the fixed environment, the same array getenv reads, printed so the native
 * replay (which gives the program the same environment) compares it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  const char *home1 = getenv("HOME");
  const char *home2 = "invalid$home";
  int n = 0;
  for (char **e = envp; *e; e++, n++) {
    if (strncmp(*e, "HOME=", 5) == 0)
      home2 = *e + 5;
    if (strncmp(*e, "PWD=", 4) == 0)
      printf("%s\n", *e);
  }
  printf("home1 = %s\nhome2 = %s\n", home1 ? home1 : "(none)", home2);
  return home1 && strcmp(home1, home2) == 0 ? 0 : 1;
}
