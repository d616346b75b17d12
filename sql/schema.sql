-- ebsize database schema.  The truth for every table the tool reads or writes.
-- PRAGMA user_version carries the schema version: bump it and add a
-- migration in src/db.c when a table changes.  Loaded into a fresh database
-- in one transaction together with sql/seed/*.sql and pricing/snapshot.csv.

PRAGMA user_version = 2;

-- Regions we know how to name, priced or not.  The Price List `location`
-- string and the usage-type prefix both identify a region (ebs-facts.md
-- T9); NULL where no source gives one.  currency: what AWS quotes the
-- region's prices in (CNY in China); a region's prices are only ever read
-- in its currency.
CREATE TABLE regions (
	code             TEXT PRIMARY KEY,
	location         TEXT,                   -- NULL: not known
	usagetype_prefix TEXT,                   -- '' for us-east-1; NULL: not known
	currency         TEXT NOT NULL DEFAULT 'USD',
	source           TEXT NOT NULL
);

-- One row per fetch or import of prices.  A snapshot is usable only once
-- `complete` is 1; for a region the newest complete snapshot holding prices
-- for that region is the one in force.  A failed fetch leaves no row at all.
CREATE TABLE price_snapshots (
	id         INTEGER PRIMARY KEY,
	source     TEXT NOT NULL,               -- 'embedded', 'fetch:<endpoint>', 'import:<file>'
	fetched_at TEXT NOT NULL,               -- UTC ISO 8601, when we got it
	as_of      TEXT NOT NULL,               -- date the prices are valid for
	complete   INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
	notes      TEXT
);

-- Prices are kept in the currency AWS quotes (China regions quote CNY);
-- an answer for a region reads only its currency (regions.currency) and
-- says which it is.  gp3 throughput is stored per MiB/s-month (the Price
-- List quotes per GiBps-month: divided by 1024).  io2 IOPS tiers are three
-- 'iops' rows with begin/end ranges in IOPS.  volume_type 'snapshot' with
-- dimension 'storage' is snapshot storage (standard tier) per GiB-month.
CREATE TABLE prices (
	snapshot_id    INTEGER NOT NULL REFERENCES price_snapshots(id) ON DELETE CASCADE,
	region         TEXT NOT NULL,
	volume_type    TEXT NOT NULL
		CHECK (volume_type IN ('gp2','gp3','io1','io2','st1','sc1','standard','snapshot')),
	dimension      TEXT NOT NULL
		CHECK (dimension IN ('storage','iops','throughput','io')),
	unit           TEXT NOT NULL,           -- normalised: GiB-month, IOPS-month, MiBps-month, per-1M-IO
	currency       TEXT NOT NULL DEFAULT 'USD',
	price_per_unit REAL NOT NULL CHECK (price_per_unit >= 0),
	begin_range    REAL NOT NULL DEFAULT 0,
	end_range      REAL,                    -- NULL = unbounded
	sku            TEXT,
	usagetype      TEXT,
	source         TEXT NOT NULL,
	as_of          TEXT,                    -- the row's own vintage; NULL: the snapshot's
	UNIQUE (snapshot_id, region, volume_type, dimension, begin_range, currency)
);
CREATE INDEX prices_region ON prices(region, snapshot_id);

-- Volume-type rules, dated: a rule change is a new row, and --as-of DATE
-- reads the newest row with effective_from <= DATE (ebs-facts.md T1-T5).
CREATE TABLE volume_limits (
	volume_type        TEXT NOT NULL,
	effective_from     TEXT NOT NULL,       -- YYYY-MM-DD
	min_size_gib       INTEGER NOT NULL,
	max_size_gib       INTEGER NOT NULL,
	min_iops           INTEGER NOT NULL,    -- 0 = not provisionable
	max_iops           INTEGER NOT NULL,
	max_iops_per_gib   REAL NOT NULL,       -- 0 = no ratio rule
	min_mibps          REAL NOT NULL,
	max_mibps          REAL NOT NULL,
	max_mibps_per_iops REAL NOT NULL,       -- 0 = no ratio rule
	included_iops      INTEGER NOT NULL,
	included_mibps     REAL NOT NULL,
	io_unit_kib        INTEGER NOT NULL,    -- largest I/O counted as one operation
	source             TEXT NOT NULL,
	PRIMARY KEY (volume_type, effective_from)
);

-- EBS limits of instance types (ebs-facts.md T11; sql/seed/sources/).
-- Bandwidth in Mbps and MB/s (decimal, 128 KiB I/O) exactly as AWS
-- publishes; IOPS at 16 KiB I/O.  burst = 1: the maximum holds for 30
-- minutes at least once per 24 hours.  ebs_optimized = EbsOptimizedSupport:
-- 'unsupported' types publish no EBS limit (the six numbers are NULL; their
-- EBS traffic shares the instance's network).  max_ebs_attachments =
-- MaximumEbsAttachments (root volume included), nvme = NvmeSupport; NULL
-- where the source does not say.
CREATE TABLE instance_limits (
	instance_type    TEXT PRIMARY KEY,
	burst            INTEGER NOT NULL CHECK (burst IN (0, 1)),
	baseline_mbps    REAL,
	max_mbps         REAL,
	baseline_mbytes_per_s REAL,
	max_mbytes_per_s REAL,
	baseline_iops    INTEGER,
	max_iops         INTEGER,
	ebs_optimized    TEXT NOT NULL DEFAULT 'default'
		CHECK (ebs_optimized IN ('default','supported','unsupported')),
	max_ebs_attachments INTEGER,
	nvme             TEXT CHECK (nvme IN ('required','supported','unsupported')),
	source           TEXT NOT NULL,
	as_of            TEXT NOT NULL,
	CHECK ((ebs_optimized = 'unsupported') =
	       (baseline_mbps IS NULL AND max_mbps IS NULL AND baseline_mbytes_per_s IS NULL
		AND max_mbytes_per_s IS NULL AND baseline_iops IS NULL AND max_iops IS NULL))
);

-- Benchmark runs: published (summaries only, with provenance) or measured
-- by `ebsize bench` / imported from fio output.
CREATE TABLE bench_runs (
	id               INTEGER PRIMARY KEY,
	label            TEXT NOT NULL,
	source           TEXT NOT NULL,          -- 'published', 'measured', 'imported'
	provenance       TEXT,                   -- citation for published runs
	volume_type      TEXT,
	size_gib         REAL,
	iops             INTEGER,                -- provisioned
	throughput_mibps REAL,                   -- provisioned
	instance_type    TEXT,
	region           TEXT,
	fio_version      TEXT,
	host             TEXT,
	kernel           TEXT,
	target           TEXT,
	device           TEXT,
	filesystem       TEXT,
	ebs_volume_id    TEXT,
	profile          TEXT,
	started_at       TEXT,
	finished_at      TEXT,
	status           TEXT NOT NULL DEFAULT 'complete'
		CHECK (status IN ('planned','running','complete','failed','interrupted')),
	notes            TEXT,
	-- measured runs (`ebsize bench run`): what resume needs
	profile_text     TEXT,                   -- the suite, in the profile file format
	results_dir      TEXT,                   -- raw fio outputs of this run
	created_target   INTEGER NOT NULL DEFAULT 0,  -- ebsize created the test file
	destructive      INTEGER NOT NULL DEFAULT 0,  -- --destructive was given
	-- identity (lstat st_dev, st_ino) of the target when the run checked
	-- or created it: "created by ebsize" is trusted only for this file,
	-- and every phase checks the path still is it; NULL for none
	target_dev       INTEGER,
	target_ino       INTEGER
);

-- One row per fio phase.  Latencies are completion latencies in ms.
-- NULL means "not measured / not published", never zero.
CREATE TABLE bench_phases (
	run_id       INTEGER NOT NULL REFERENCES bench_runs(id) ON DELETE CASCADE,
	seq          INTEGER NOT NULL,           -- order within the run
	phase        TEXT NOT NULL,
	rw           TEXT NOT NULL,
	bs           TEXT NOT NULL,
	iodepth      INTEGER,
	numjobs      INTEGER,
	runtime_s    REAL,
	iops         REAL,
	bw_mibps     REAL,
	lat_mean_ms  REAL,                       -- completion latency (clat)
	lat_total_ms REAL,                       -- submission + completion (lat)
	p50_ms       REAL,
	p95_ms       REAL,
	p99_ms       REAL,
	p999_ms      REAL,
	iops_min     REAL,
	iops_max     REAL,
	samples      INTEGER,
	-- credit-cliff analysis (NULL when no cliff was seen or published)
	cliff_t_s          REAL,                 -- seconds into the phase
	iops_before_cliff  REAL,
	iops_after_cliff   REAL,
	cliff_transition_s REAL,
	lat_before_cliff_ms REAL,
	lat_after_cliff_ms  REAL,
	started_at   TEXT,
	finished_at  TEXT,
	notes        TEXT,
	-- analysis of measured phases (bench_analysis.c); NULL = not computed
	steady_iops        REAL,                 -- mean of the samples after the first
	iops_stddev        REAL,
	first_sample_iops  REAL,                 -- fio's start-up sample, excluded
	cliff_drop_ratio   REAL,                 -- iops_after_cliff / iops_before_cliff
	p95_over_p50       REAL,
	lat_bimodal        INTEGER,              -- p95 >= 3 x p50
	little_lat_ms      REAL,                 -- iodepth x numjobs / iops
	little_ratio       REAL,                 -- lat_total_ms (else lat_mean_ms) / little_lat_ms
	model_cliff_t_s    REAL,                 -- the model's cliff for this volume
	model_steady_iops  REAL,
	raw_output         TEXT,                 -- the fio JSON kept on disk
	PRIMARY KEY (run_id, seq)
);

-- Per-second series, only where measured (never synthesised).
CREATE TABLE bench_samples (
	run_id INTEGER NOT NULL,
	seq    INTEGER NOT NULL,
	t_ms   INTEGER NOT NULL,
	iops   REAL NOT NULL,
	FOREIGN KEY (run_id, seq) REFERENCES bench_phases(run_id, seq) ON DELETE CASCADE
);
CREATE INDEX bench_samples_phase ON bench_samples(run_id, seq, t_ms);
