/*
 * db_bench.h - benchmark runs, phases and per-second samples in the
 * database.  Every write is one transaction: a phase is stored with its
 * samples or not at all, an import stores every phase or nothing.
 */
#ifndef EBSIZE_DB_BENCH_H
#define EBSIZE_DB_BENCH_H

#include <stddef.h>

#include "ebsize/bench.h"

struct db;

/* Insert run r (r->id is set).  Status and times as given. */
int db_bench_create_run(struct db *db, struct bench_run *r, char *err);
/* Update status, finished_at and fio_version of run r->id. */
int db_bench_update_run(struct db *db, const struct bench_run *r, char *err);

/* Record where run id keeps its raw fio outputs. */
int db_bench_set_results_dir(struct db *db, long long id, const char *dir,
			     char *err);

/*
 * Store phase p of run_id with its n samples, replacing a phase stored
 * before under the same seq.  One transaction.
 */
int db_bench_store_phase(struct db *db, long long run_id,
			 const struct bench_phase_result *p,
			 const struct bench_sample *s, size_t n, char *err);

/*
 * Store run r (source 'imported') with nphases phases and their samples
 * (samples[i] has nsamples[i] rows) in one transaction; r->id is set.
 */
int db_bench_import(struct db *db, struct bench_run *r,
		    const struct bench_phase_result *p,
		    struct bench_sample *const *samples, const size_t *nsamples,
		    size_t nphases, char *err);

/*
 * Resolve RUN: a run id, or a label (the newest run with it).
 * EBS_ERR_NOT_FOUND with a message naming ref.
 */
int db_bench_find_run(struct db *db, const char *ref, long long *id, char *err);

int db_bench_load_run(struct db *db, long long id, struct bench_run *out,
		      char *err);
/* Phases of run id in seq order; *out heap (caller frees). */
int db_bench_load_phases(struct db *db, long long id,
			 struct bench_phase_result **out, size_t *n, char *err);
/* Samples of one phase in time order; *out heap (caller frees). */
int db_bench_load_samples(struct db *db, long long id, long seq,
			  struct bench_sample **out, size_t *n, char *err);

/* Call fn for each run (newest first) with its number of phases. */
int db_bench_each_run(struct db *db,
		      int (*fn)(const struct bench_run *, long nphases, void *),
		      void *arg, char *err);

/*
 * Call fn for each published phase named phase on volume_type (the
 * article's runs), with the run's label.
 */
int db_bench_each_published(
    struct db *db, const char *volume_type, const char *phase,
    int (*fn)(const char *label, const struct bench_phase_result *, void *),
    void *arg, char *err);

/*
 * *yes = 1 when a run recorded that ebsize created target and the file
 * it created had this dev and ino (the path alone proves nothing).
 */
int db_bench_target_created(struct db *db, const char *target,
			    unsigned long long dev, unsigned long long ino,
			    int *yes, char *err);

#endif
