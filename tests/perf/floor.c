/*
 * floor.c - the floor of `make perf`'s start-up rows: a program that only
 * needs libc (dynamically linked, as a C program is by default) and
 * prints one line, as `ebsize version` does.  Whatever ebsize takes
 * beyond it is ebsize's own start-up.
 */
#include <stdio.h>

int main(void)
{
	fputs("ebsize 0.0.0\n", stdout);
	return 0;
}
