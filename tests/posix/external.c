/* Calls a function no bitcode defines (sqrt, without --libc). */
double sqrt(double);

int main(int argc, char **argv)
{
	(void)argv;
	double r = sqrt(16.0 * argc);
	return r == 4.0 ? 5 : 6;
}
