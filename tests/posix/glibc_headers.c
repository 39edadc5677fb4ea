/* Compiled against the system's glibc headers with _FORTIFY_SOURCE: the calls
 * become __isoc99_sscanf, __printf_chk and __sprintf_chk, which the model maps
 * onto musl. Exits 12 and prints "12". */
#include <stdio.h>

int main(void)
{
	int a, b;
	char buf[32];
	if (sscanf("3 4", "%d %d", &a, &b) != 2)
		return 1;
	sprintf(buf, "%d", a * b);
	printf("%s\n", buf);
	return a * b;
}
