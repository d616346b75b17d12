/* main.c - the ebsize entry point; everything else lives in cli.c. */
#include "ebsize/cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
