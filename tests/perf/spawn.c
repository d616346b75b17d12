/*
 * spawn.c - the timer of `make perf` (tests/perf/perf.py): runs commands
 * RUNS times each, interleaved (A B C A B C ...) so that a machine getting
 * busier or quieter weighs on all of them alike, and prints per command
 * the median wall time of a whole process (posix_spawn to wait4, stdin
 * and stdout /dev/null or the files given), the largest peak RSS and the
 * exit status of the last run.
 *
 *   perf-spawn RUNS [-i IN] [-o OUT] CMD ARG... [-- [-i IN] [-o OUT] CMD ARG...]...
 *
 * Prints one line per command: "MEDIAN_SECONDS MAX_RSS_KIB STATUS".
 * A benchmark tool, not part of ebsize: its arguments are trusted.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

struct job {
	char **argv;
	const char *in, *out;
	double *t;
	long rss;
	int status;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run(struct job *j, int k)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int st;
	double t0;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, j->in ? j->in : "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, j->out ? j->out : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	t0 = now();
	if (posix_spawnp(&pid, j->argv[0], &fa, NULL, j->argv, environ)) {
		perror(j->argv[0]);
		exit(2);
	}
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("wait4");
		exit(2);
	}
	j->t[k] = now() - t0;
	posix_spawn_file_actions_destroy(&fa);
	if (ru.ru_maxrss > j->rss)
		j->rss = ru.ru_maxrss;
	j->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	struct job jobs[32];
	int njobs = 0, runs = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;

	if (runs < 1 || argc < 3) {
		fputs("usage: perf-spawn RUNS [-i IN] [-o OUT] CMD ARG... [-- ...]...\n", stderr);
		return 2;
	}
	for (int i = 2; i < argc && njobs < 32;) {
		struct job *j = &jobs[njobs++];

		memset(j, 0, sizeof(*j));
		for (;;) {
			if (!strcmp(argv[i], "-i") && i + 1 < argc)
				j->in = argv[i + 1];
			else if (!strcmp(argv[i], "-o") && i + 1 < argc)
				j->out = argv[i + 1];
			else
				break;
			i += 2;
		}
		j->argv = argv + i;
		while (i < argc && strcmp(argv[i], "--"))
			i++;
		if (i < argc)
			argv[i++] = NULL;   /* ends this command's argv */
		j->t = calloc((size_t)runs, sizeof(double));
	}
	for (int k = 0; k < runs; k++)
		for (int n = 0; n < njobs; n++)
			run(&jobs[n], k);
	for (int n = 0; n < njobs; n++) {
		qsort(jobs[n].t, (size_t)runs, sizeof(double), cmp_double);
		printf("%.6f %ld %d\n", runs % 2 ? jobs[n].t[runs / 2] :
		       (jobs[n].t[runs / 2 - 1] + jobs[n].t[runs / 2]) / 2,
		       jobs[n].rss, jobs[n].status);
	}
	return 0;
}
