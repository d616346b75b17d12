/*
 * bench_import.c - which files `ebsize bench import` reads: fio JSON
 * outputs and IOPS logs given one by one or as directories, and which log
 * belongs to which JSON (X_iops.N.log to X.json, or to the only JSON).
 * It only looks at names and directories; fio_parse.c reads the files.
 */
#include "ebsize/bench.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ebsize/util.h"

#define IMPORT_MAX_FILES 4096

void bench_import_files_release(struct bench_import_files *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->njson; i++)
		free(f->json[i]);
	for (size_t i = 0; i < f->nlogs; i++)
		free(f->logs[i]);
	free(f->json);
	free(f->logs);
}

static int is_json_name(const char *s)
{
	return str_ends_with(s, ".json") || str_ends_with(s, ".json.txt");
}

static int is_iops_log_name(const char *s)
{
	const char *b = strrchr(s, '/');

	b = b ? b + 1 : s;
	return strstr(b, "_iops") && str_ends_with(b, ".log");
}

static int add_file(struct bench_import_files *f, const char *path,
		    int explicit_, char *err)
{
	if (f->njson + f->nlogs >= IMPORT_MAX_FILES)
		return ebs_fail(err, EBS_ERR_TOO_BIG,
				"more than %d files to import",
				IMPORT_MAX_FILES);
	if (is_iops_log_name(path)) {
		xgrow((void **)&f->logs, &f->alogs, f->nlogs + 1,
		      sizeof(*f->logs));
		f->logs[f->nlogs++] = xstrdup(path);
	} else if (is_json_name(path) || explicit_) {
		xgrow((void **)&f->json, &f->ajson, f->njson + 1,
		      sizeof(*f->json));
		f->json[f->njson++] = xstrdup(path);
	}
	return EBS_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the files of a directory (not recursive), sorted by name. */
static int add_dir(struct bench_import_files *f, const char *dir, char *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	int rc = EBS_OK;

	if (!d)
		return ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s", dir,
				strerror(errno));
	while ((e = readdir(d)) && n < IMPORT_MAX_FILES) {
		if (e->d_name[0] == '.')
			continue;
		xgrow((void **)&names, &alloc, n + 1, sizeof(*names));
		names[n++] = xstrfmt("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			rc = add_file(f, names[i], 0, err);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The stem a JSON or log belongs to: name without ".json[.txt]" or "_iops...". */
static char *stem_of(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s = xstrdup(b ? b + 1 : path), *cut;

	if ((cut = strstr(s, "_iops")) && str_ends_with(s, ".log"))
		*cut = '\0';
	else if ((cut = strstr(s, ".json")))
		*cut = '\0';
	return s;
}

/* Logs of json i: those with its stem, or all when there is one JSON. */
size_t bench_import_logs_for(const struct bench_import_files *f, size_t i,
			     char **out, char *err, int *rc)
{
	char *js = stem_of(f->json[i]);
	size_t n = 0;

	*rc = EBS_OK;
	for (size_t k = 0; k < f->nlogs; k++) {
		char *ls = stem_of(f->logs[k]);
		int mine = !strcmp(ls, js), theirs = 0;

		for (size_t j = 0; j < f->njson && !mine; j++) {
			char *o = stem_of(f->json[j]);

			theirs |= !strcmp(o, ls);
			free(o);
		}
		if (mine || (f->njson == 1 && !theirs))
			out[n++] = f->logs[k];
		else if (!theirs && !*rc)
			*rc = ebs_fail(
			    err, EBS_ERR_USAGE,
			    "cannot tell which fio output the log '%s' belongs to (name it <json name>_iops.N.log)",
			    f->logs[k]);
		free(ls);
	}
	free(js);
	return n;
}

/* "NN-" at the start of the stem of path gives the phase number. */
long bench_import_seq(const char *path)
{
	char *s = stem_of(path);
	long v = -1;

	if (s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' &&
	    s[2] == '-')
		v = (s[0] - '0') * 10 + (s[1] - '0');
	free(s);
	return v;
}

int bench_import_collect(const char *const *paths, size_t n,
			 struct bench_import_files *f, char *err)
{
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		int rc;

		if (stat(paths[i], &sb))
			return ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s",
					paths[i], strerror(errno));
		rc = S_ISDIR(sb.st_mode) ? add_dir(f, paths[i], err)
					 : add_file(f, paths[i], 1, err);
		if (rc)
			return rc;
	}
	return EBS_OK;
}
