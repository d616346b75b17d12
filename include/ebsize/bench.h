/*
 * bench.h - the fio measurement suite: profile definitions (one table used
 * by local runs and by the Kubernetes manifests), the results of a run and
 * its phases as stored, the pure analysis (summaries, credit-cliff
 * detection, latency bimodality, Little's law, model comparison), and the
 * runner that spawns fio.
 *
 * Numbers that mean "not measured" are NAN (stored as SQL NULL), never 0.
 */
#ifndef EBSIZE_BENCH_H
#define EBSIZE_BENCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "ebsize/err.h"

#define BENCH_MAX_PHASES 32
#define BENCH_NAME_LEN	 48
/* Longest path a run stores (target, fio output files): a longer one is
 * refused with a message, never cut short. */
#define BENCH_PATH_LEN 4096

/* ------------------------------------------------------------ profiles */

struct bench_phase_def {
	char name[BENCH_NAME_LEN]; /* [a-z0-9_-]+ */
	char rw[16];		   /* fio rw= */
	char bs[16];		   /* fio bs= */
	long iodepth;
	long numjobs;
	long runtime_s;	      /* 0: not time_based, writes the file once */
	long burst_runtime_s; /* runtime on gp2/st1/sc1; 0: runtime_s */
	int iops_log;	      /* per-second IOPS log (log_avg_msec=1000) */
};

struct bench_profile {
	char name[64];
	char size[32]; /* fio size= text ("8g") */
	uint64_t size_bytes;
	struct bench_phase_def phase[BENCH_MAX_PHASES];
	size_t nphases;
};

/* Text of a built-in profile ("article", "quick"), or NULL. */
const char *bench_profile_builtin(const char *name);
/* Names of the built-in profiles, NULL-terminated. */
extern const char *const bench_profile_names[];

/*
 * Parse a profile definition (the documented line format; see
 * bench_profile.c) into out.  name labels errors.  EBS_ERR_PARSE with
 * "PROFILE: line N: ..." on bad input.
 */
int bench_profile_parse(const char *text, size_t len, const char *name,
			struct bench_profile *out, char *err);

/* Is t a credit-bucket type (gp2, st1, sc1) that gets burst_runtime_s? */
int bench_type_bursts(const char *volume_type);
/* The runtime of phase p on a volume of volume_type (may be NULL). */
long bench_phase_runtime(const struct bench_phase_def *p,
			 const char *volume_type);
/* Seconds of all timed phases (the layout phase is not counted). */
long bench_profile_seconds(const struct bench_profile *pr,
			   const char *volume_type);

/*
 * The fio arguments (without "fio" itself) of phase i: target file, size,
 * engine options, JSON output to OUTDIR/STEM.json and, for iops_log
 * phases, the log prefix OUTDIR/STEM.  Appends heap strings to *argv
 * (grown as needed; *argc counts them).  STEM is bench_phase_stem().
 */
void bench_phase_argv(const struct bench_profile *pr, size_t i,
		      const char *target, const char *volume_type,
		      const char *outdir, char ***argv, size_t *argc);
/* "NN-NAME": the file stem of phase i's outputs. */
void bench_phase_stem(const struct bench_profile *pr, size_t i, char *buf,
		      size_t n);

/* ------------------------------------------------------------ results */

struct bench_sample {
	long long t_ms;
	double iops;
};

/* One phase as stored (bench_phases). */
struct bench_phase_result {
	long seq;
	char phase[BENCH_NAME_LEN];
	char rw[16];
	char bs[16];
	long iodepth;
	long numjobs;
	double runtime_s;
	double iops, bw_mibps;
	double lat_mean_ms, p50_ms, p95_ms, p99_ms, p999_ms; /* completion */
	double lat_total_ms; /* mean total latency (fio lat_ns) */
	double iops_min, iops_max;
	long samples;
	/* analysis */
	double steady_iops; /* mean of the samples after the first */
	double iops_stddev;
	double first_sample_iops;
	double cliff_t_s, iops_before_cliff, iops_after_cliff;
	double cliff_drop_ratio, cliff_transition_s;
	double p95_over_p50;
	int bimodal;		/* -1 unknown, 0 no, 1 yes */
	double little_lat_ms;	/* iodepth * numjobs / IOPS */
	double little_ratio;	/* lat_total_ms (else lat_mean_ms) /
	                              * little_lat_ms */
	double model_cliff_t_s; /* NAN when the type has no cliff */
	double model_steady_iops;
	char started_at[32];
	char finished_at[32];
	char raw_output[BENCH_PATH_LEN]; /* the fio JSON kept under --results */
	char notes[256];
};

/* A phase with every number NAN and bimodal unknown. */
void bench_phase_result_init(struct bench_phase_result *p);

/* One run as stored (bench_runs).  Text fields are "" when unknown. */
struct bench_run {
	long long id;
	char label[128];
	char source[16]; /* published, measured, imported */
	char volume_type[16];
	double size_gib;	 /* NAN unknown */
	long iops;		 /* provisioned; 0 unknown */
	double throughput_mibps; /* provisioned; NAN unknown */
	char instance_type[32];
	char region[32];
	char fio_version[32];
	char host[128];
	char kernel[128];
	char target[BENCH_PATH_LEN];
	char device[64];
	char filesystem[32];
	char ebs_volume_id[32];
	char profile[64];
	char started_at[32];
	char finished_at[32];
	char status[16];
	int created_target;
	int destructive;
	/* identity of the target (lstat) when the run checked or created it;
	 * has_target_id 0 for runs stored before it was recorded */
	int has_target_id;
	unsigned long long target_dev, target_ino;
	char *profile_text; /* heap or NULL */
	char *results_dir;  /* heap or NULL */
	char *provenance;   /* heap or NULL */
	char *notes;	    /* heap or NULL */
};

void bench_run_init(struct bench_run *r);
/* Free the heap fields; NULL-safe. */
void bench_run_release(struct bench_run *r);

/* ------------------------------------------------------------ analysis */

struct bench_stats {
	size_t n;
	double mean, min, max, stddev;
};

/* Stats of s[skip..n-1]; n 0 gives NANs. */
void bench_series_stats(const struct bench_sample *s, size_t n, size_t skip,
			struct bench_stats *out);

struct bench_cliff {
	int found;
	double t_s; /* first sample below the high level */
	double iops_before, iops_after;
	double drop_ratio;   /* iops_after / iops_before */
	double transition_s; /* last high sample to first low sample */
};

/*
 * Find a credit cliff in a per-second series (the first sample, fio's
 * start-up burst, is ignored): the split minimising the squared error of
 * two constant levels, accepted when the later level is below 75 % of the
 * earlier and each side has at least 3 samples.  Pure.
 */
void bench_detect_cliff(const struct bench_sample *s, size_t n,
			struct bench_cliff *out);

/* Fill p's analysis fields from its figures and series (pure). */
void bench_analyse_phase(struct bench_phase_result *p,
			 const struct bench_sample *s, size_t n);

/*
 * The model's expectation for a sustained random-I/O phase on this volume:
 * cliff time from a full bucket and steady IOPS after it (gp2 below
 * 1,000 GiB), or no cliff (cliff NAN) and the provisioned/baseline IOPS.
 * Returns -1 when type is unknown or size is not set.
 */
int bench_model_expect(const char *volume_type, double size_gib, long iops,
		       double *cliff_t_s, double *steady_iops);

/* ------------------------------------------------------------ runner */

/* What ebsize found out about the test file and what holds it. */
struct bench_target_info {
	char path[BENCH_PATH_LEN]; /* absolute */
	int exists;
	int is_block;
	int is_symlink;		     /* path itself is a symbolic link */
	unsigned long long dev, ino; /* lstat of path when it exists */
	char device[64];	     /* "nvme1n1", "vda"; "" unknown */
	char filesystem[32];	     /* "ext4", "xfs", ...; "" for a device */
	char ebs_volume_id[32];	     /* "vol-..." on an NVMe EBS device */
};

/*
 * Find fio on PATH.  EBS_ERR_NOT_FOUND when missing; *hint then says how
 * to install it.
 */
int bench_find_fio(char *path, size_t n, char *err, char *hint);

/*
 * Decide whether fio may run on target, before anything runs: refuses a
 * symbolic link, a block device or an existing file ebsize did not create
 * (created_by_us: the caller has matched info->dev/ino with a recorded
 * run) unless destructive (EBS_ERR_ILLEGAL), checks free space for size_bytes
 * (EBS_ERR_IO), O_DIRECT (EBS_ERR_EXEC) and the kernel's AIO for libaio.
 * Fills info.  err and hint (EBS_ERRLEN each) explain a refusal.
 */
int bench_check_target(const char *target, uint64_t size_bytes, int destructive,
		       int created_by_us, struct bench_target_info *info,
		       char *err, char *hint);

/*
 * Create the missing target file (O_CREAT|O_EXCL|O_NOFOLLOW, so nothing
 * that appeared since the check is followed or reused) and record its
 * dev/ino in info.  EBS_ERR_ILLEGAL when the path now exists.
 */
int bench_create_target(struct bench_target_info *info, char *err);

/*
 * Is path a regular file (not a link) shorter than size?  fio lays out
 * such a file by unlinking and re-creating it: a new inode.
 */
int bench_target_short(const char *path, uint64_t size);

/*
 * After fio laid out a short target: path must be a regular file (not a
 * link); its new dev and ino into *dev, *ino.  EBS_ERR_ILLEGAL else.
 */
int bench_target_relearn(const char *path, unsigned long long *dev,
			 unsigned long long *ino, char *err);

/*
 * Is path still the file that was checked: lstat gives dev/ino?  Else
 * EBS_ERR_ILLEGAL saying so (fio reopens the path in every phase).
 */
int bench_verify_target(const char *path, unsigned long long dev,
			unsigned long long ino, char *err);

/* Host name and kernel release (uname). */
void bench_host_info(char *host, size_t hn, char *kernel, size_t kn);

/*
 * Take the lock of a run's results directory (created if needed), held
 * until *fd is closed or the process dies.  EBS_ERR_ILLEGAL when another
 * process holds it.
 */
int bench_lock_run(const char *dir, int *fd, char *err);

/* Called about every second while fio runs (current IOPS or NAN). */
typedef void (*bench_progress_fn)(void *arg, double elapsed_s, double iops);

/*
 * Run phase i of pr with fio (posix_spawn, argv array, no shell), its
 * outputs kept in outdir, and read back what it measured: out (seq = i,
 * analysis not filled) and the per-second samples (*samples heap, caller
 * frees).  fio runs in its own process group; *stop set by a signal
 * handler sends it SIGINT (SIGKILL after a few seconds' grace).  A phase
 * fio completed anyway (exit 0, JSON without "terminating on signal") is
 * returned as usual; else EBS_ERR_INTERRUPTED.  progress may be NULL.
 */
int bench_run_phase(const char *fio, const struct bench_profile *pr, size_t i,
		    const char *target, const char *volume_type,
		    const char *outdir, bench_progress_fn progress, void *arg,
		    volatile sig_atomic_t *stop, struct bench_phase_result *out,
		    struct bench_sample **samples, size_t *nsamples,
		    char *fio_version, size_t fvn, char *err);

/*
 * Read phase outputs fio wrote elsewhere: the JSON at json_path and the
 * IOPS logs named in logs (may be empty).  One phase per job name; *out
 * and each (*samples)[k] are heap (caller frees all).
 */
int bench_read_outputs(const char *json_path, char *const *logs, size_t nlogs,
		       struct bench_phase_result **out,
		       struct bench_sample ***samples, size_t **nsamples,
		       size_t *nphases, char *fio_version, size_t fvn,
		       int *interrupted, char *err);

/* ------------------------------------------------------------ import */

/* The files of an import: fio JSON outputs and IOPS logs, heap paths. */
struct bench_import_files {
	char **json;
	size_t njson, ajson;
	char **logs;
	size_t nlogs, alogs;
};

/*
 * Collect paths (files, or directories whose *.json, *.json.txt and
 * *_iops*.log files are taken in name order) into f.  A file named
 * explicitly counts as JSON unless it is an IOPS log.
 */
int bench_import_collect(const char *const *paths, size_t n,
			 struct bench_import_files *f, char *err);
void bench_import_files_release(struct bench_import_files *f);

/*
 * The logs of f->json[i] into out (room for f->nlogs): those named after
 * it, or every unclaimed log when there is a single JSON.  *rc is set to
 * EBS_ERR_USAGE (err filled) for a log that belongs to no JSON.
 */
size_t bench_import_logs_for(const struct bench_import_files *f, size_t i,
			     char **out, char *err, int *rc);

/* NN of a "NN-name.json" output (ebsize's own naming), or -1. */
long bench_import_seq(const char *json_path);

/* ------------------------------------------------------------ k8s */

struct bench_k8s_opts {
	const char *types[8];
	size_t ntypes;
	const char *size;     /* Kubernetes quantity, "100Gi" */
	const char *instance; /* NULL: no nodeSelector */
	const char *namespace_;
	const char *image;
	long iops;	       /* gp3/io1/io2 provisioned; 0 default */
	long throughput_mibps; /* gp3; 0 default */
};

/*
 * Write the manifests (multi-document YAML, commands as comments) for
 * profile pr into *out (heap, NUL-terminated; caller frees).
 */
int bench_k8s_manifests(const struct bench_profile *pr,
			const struct bench_k8s_opts *o, char **out, char *err);

#endif
