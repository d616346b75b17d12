/*
 * scan.h - inventory analysis: from one volume's configuration, state,
 * used space and observed load to one finding (what to change, what it
 * saves, how risky and how sure), plus the ready-to-run commands.  Pure:
 * no I/O, no SQLite; prices and limits come in as structs.  The rules it
 * applies live in the model (model_gp3_like_gp2 and friends).
 */
#ifndef EBSIZE_SCAN_H
#define EBSIZE_SCAN_H

#include <stddef.h>

#include "ebsize/inventory.h"
#include "ebsize/model.h"

/* Finding categories, in the order totals list them. */
enum scan_cat {
	SCAN_GP2_TO_GP3,	 /* in place, nothing slower */
	SCAN_GP2_SIZED_FOR_IOPS, /* a smaller gp3 + data copy */
	SCAN_GP2_BURST_RISK,	 /* observed load drains the bucket */
	SCAN_OVERPROVISIONED,	 /* io1/io2/gp3 above peak + headroom */
	SCAN_UNATTACHED,	 /* state available: pays for nothing */
	SCAN_EXCLUDED,		 /* exempted by tag: never changed */
	/* from the billing rules (billing.h), for volumes known from the bill */
	SCAN_IO1_TO_IO2,       /* io2 at the same IOPS costs less */
	SCAN_IO1_TO_GP3,       /* gp3 carries what io1 allows */
	SCAN_NOT_IN_INVENTORY, /* billed, absent from describe-volumes */
	SCAN_CAT_COUNT
};

/* "gp2_to_gp3", ... (the JSON value). */
const char *scan_cat_name(enum scan_cat c);

/* What CloudWatch showed for one volume (see scan_load_from_series). */
struct scan_load {
	long period_s;
	int have_iops;
	double peak_iops; /* max over periods of (read + write ops) / P */
	int have_mibps;
	double peak_mibps; /* max of (read + write bytes) / P / 2^20 */
	int have_burst;
	double burst_first_pct, burst_last_pct, burst_min_pct;
	long long burst_first_t, burst_last_t;
	int iops_exceeded; /* periods with VolumeIOPSExceededCheck 1 */
	int tput_exceeded;
};

/*
 * Summarise the series of one volume (any order, any mix of metrics; read
 * and write series are added at equal timestamps).  A series whose period
 * differs from the first one's is ignored; returns how many were.
 */
int scan_load_from_series(const struct inv_series *const *s, size_t n,
			  struct scan_load *out);

struct scan_volume {
	const char *id;
	const char *region;
	const char *az;
	struct vol_config cfg;
	int available;		      /* State "available" (unattached) */
	double used_gib;	      /* < 0: unknown */
	const struct scan_load *load; /* NULL: no metrics */
	int multi_attach;	      /* Multi-Attach: never gp3 (T1) */
	int encrypted;		      /* a new volume must be encrypted too */
	const char *kms_key_id;	      /* NULL: the default key (not owned) */
};

struct scan_opts {
	double headroom_pct;	/* over observed peaks; default 20 */
	double min_savings_usd; /* per month; findings below are dropped */
	double alarm_lead_s;	/* BurstBalance alarm lead time */
};

enum scan_level { SCAN_LOW, SCAN_MEDIUM, SCAN_HIGH };
const char *scan_level_name(enum scan_level l);

struct scan_finding {
	enum scan_cat cat;
	struct vol_config cur;
	struct vol_config prop; /* prop.count 0: delete (unattached) */
	int new_volume;		/* prop needs a new volume + data copy */
	double cur_usd;		/* monthly */
	double prop_usd;
	double save_usd;  /* never negative */
	double extra_usd; /* monthly cost the fix adds (burst risk) */
	enum scan_level risk;
	enum scan_level confidence;
	double cliff_s;		/* seconds to the burst cliff; < 0 none */
	double alarm_pct;	/* BurstBalance threshold; 0 no alarm */
	double alarm_load_iops; /* the load the threshold and the cliff
				   * assume (one drain for both) */
	double alarm_lead_s;	/* seconds left when it fires */
	/* what the reason text needs (see scan_reason) */
	double used_gib;  /* < 0 unknown */
	double peak_iops; /* < 0 no metrics */
	double headroom_pct;
	long target_iops; /* gp2 size looks chosen for this; 0 no */
	unsigned no_byte_metrics : 1;
	unsigned burst_data : 1;    /* BurstBalance was observed */
	unsigned burst_falling : 1; /* ... and fell over the window */
	unsigned encrypted : 1;	    /* the volume is encrypted */
	double burst_min_pct;	    /* lowest BurstBalance seen */
	double balance_pct_per_h;   /* its fall, % per hour (0: not falling) */
	double load_iops;	    /* the load seen draining the bucket: the
				   * peak IOPS or the fall of BurstBalance,
				   * whichever drains faster, at most the
				   * burst ceiling; < 0 none seen */
	const char *kms_key_id;	    /* its key; NULL default (not owned) */
	unsigned to_gp3_from_piops : 1;
	const char *excluded_by; /* the --exclude-tag rule (not owned) */
};

/* USD rounded to a millionth (all money in findings and totals). */
double scan_usd(double v);

/* Why: one line explaining the finding, into buf. */
void scan_reason(const struct scan_finding *f, char *buf, size_t n);

/*
 * Analyse one volume with the prices and limits of its region.  Returns 1
 * with *f filled, 0 when there is nothing to propose (or less than
 * min_savings_usd), -1 when a needed price is missing (err says which).
 */
int scan_analyze(const struct scan_volume *v, const struct price_set *ps,
		 const struct volume_limits lim[VT_COUNT],
		 const struct scan_opts *o, struct scan_finding *f, char *err);

/* The finding for a volume exempted by tag (current cost only). */
int scan_excluded(const struct scan_volume *v, const struct price_set *ps,
		  const char *why, struct scan_finding *f, char *err);

/*
 * Commands, as heap strings the caller frees (NULL when not applicable).
 * Ids and regions must already be validated (they are pasted into shell
 * lines); nothing user-controlled beyond them goes in.
 *   scan_command: modify-volume (one batched modification), create-volume
 *   for a right-size (encrypted, with f->kms_key_id, when the volume is),
 *   snapshot-then-delete for an unattached volume.  Each states only what
 *   the API's defaults would not give (A1): no --iops 3000 / --throughput
 *   125 when the type changes to gp3 (ModifyVolume and CreateVolume default
 *   to them), every value that changes when the type stays (ModifyVolume
 *   keeps what it is not given), no --volume-type when it stays.
 *   scan_alarm_command: put-metric-alarm on BurstBalance.
 * Both return NULL for an id that is not a volume id (vol- and 8 or 17
 * hex digits) or a region that is not [a-z0-9-], whatever their origin
 * (billing exports carry anonymized or odd ids), and scan_command for a
 * finding that changes nothing (excluded, not_in_inventory).
 * The Kubernetes text (VolumeAttributesClass, kubectl) is scan_k8s.h's.
 */
char *scan_command(const struct scan_finding *f, const char *id,
		   const char *region, const char *az);
char *scan_alarm_command(const struct scan_finding *f, const char *id,
			 const char *region);

#endif
