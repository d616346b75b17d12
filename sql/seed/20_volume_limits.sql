-- Volume-type limits, dated (ebs-facts.md T1-T5).  --as-of DATE reads the
-- newest row with effective_from <= DATE.  effective_from '2020-12-01' is the
-- project's start-of-record date (gp3 launch), not a date stated by the docs,
-- except where a row says otherwise.
--
-- Column conventions: min_iops 0 = IOPS not provisionable (max_iops is then
-- the type's published ceiling); ratio columns 0 = no ratio rule;
-- io_unit_kib = largest I/O counted as one operation (T1, [S5]).
INSERT INTO volume_limits (volume_type, effective_from,
	min_size_gib, max_size_gib, min_iops, max_iops, max_iops_per_gib,
	min_mibps, max_mibps, max_mibps_per_iops, included_iops, included_mibps,
	io_unit_kib, source) VALUES
	-- gp2: T1 (1-16,384 GiB; baseline 100-16,000 IOPS at 3 IOPS/GiB; 250 MiB/s),
	-- T2 baseline formula max(100, min(16,000, 3 x GiB)) [S1]; 256 KiB I/O unit T1 [S5].
	('gp2', '2020-12-01', 1, 16384, 100, 16000, 3,
		0, 250, 0, 0, 0, 256,
		'ebs-facts.md T1 [S1 A1]; T2 [S1]; I/O unit T1 [S5]'),
	-- gp3 previous limits (Dec-2020 -> 2025): T3 "Previous" column [S1]:
	-- 1-16,384 GiB, 3,000-16,000 IOPS, 500 IOPS/GiB, 125-1,000 MiB/s,
	-- 0.25 MiB/s per IOPS, 3,000 IOPS + 125 MiB/s included.
	('gp3', '2020-12-01', 1, 16384, 3000, 16000, 500,
		125, 1000, 0.25, 3000, 125, 256,
		'ebs-facts.md T3 previous (Dec-2020 to 2025) [S1 P2 W1 P3]; I/O unit T1 [S5]'),
	-- gp3 current limits: T1 and T3 "Current" column [A1 A2 A3 K1]:
	-- 1-65,536 GiB, 3,000-80,000 IOPS, 125-2,000 MiB/s.  Effective date
	-- 2025-09-01 is T3's "Sept 2025 per project brief, announcement not located".
	('gp3', '2025-09-01', 1, 65536, 3000, 80000, 500,
		125, 2000, 0.25, 3000, 125, 256,
		'ebs-facts.md T1 [A1 A2 A3 K1]; T3 current (Sept 2025 per project brief) [A1 A3 K1 S1 P2 W1 P3]; I/O unit T1 [S5]'),
	-- io1: T1/T4 (4-16,384 GiB, 100-64,000 IOPS, 50 IOPS/GiB, 1,000 MiB/s) [S2 A1].
	-- The 32,000-IOPS non-Nitro cap and the piecewise throughput rule
	-- (<= 32,000 IOPS: 500 MiB/s; above: 16 KiB x IOPS) are handled in code.
	('io1', '2020-12-01', 4, 16384, 100, 64000, 50,
		0, 1000, 0, 0, 0, 256,
		'ebs-facts.md T1 [S2 A1]; T4 [A1 A2 S2]; I/O unit T1 [S5]'),
	-- io2 (all Block Express): T1/T4 (4-65,536 GiB, 100-256,000 IOPS,
	-- 1,000 IOPS/GiB, 4,000 MiB/s, 0.256 MiB/s per IOPS) [A1 A2 S2 K1].
	-- T4 notes the 2023 guide still listed a non-Block-Express io2; the docs
	-- give no date for the change, so only the current limits are seeded.
	('io2', '2020-12-01', 4, 65536, 100, 256000, 1000,
		0, 4000, 0.256, 0, 0, 256,
		'ebs-facts.md T1 [A1 A2 S2 K1]; T4 [A1 A2 S2 K1]; I/O unit T1 [S5]'),
	-- st1: T1/T5 (125-16,384 GiB, max 500 IOPS at 1 MiB I/O, 500 MiB/s cap) [S3 S4 A1].
	('st1', '2020-12-01', 125, 16384, 0, 500, 0,
		0, 500, 0, 0, 0, 1024,
		'ebs-facts.md T1 [S3 S4 A1]; T5 [S3 S4]; I/O unit T1 [S5]'),
	-- sc1: T1/T5 (125-16,384 GiB, max 250 IOPS at 1 MiB I/O, 250 MiB/s cap) [S3 S4 A1].
	('sc1', '2020-12-01', 125, 16384, 0, 250, 0,
		0, 250, 0, 0, 0, 1024,
		'ebs-facts.md T1 [S3 S4 A1]; T5 [S3 S4]; I/O unit T1 [S5]'),
	-- standard (magnetic): T1 (1-1,024 GiB, 40-200 IOPS avg ~100, 40-90 MiB/s)
	-- [S4 A1]; upper ends stored.  T1 gives no I/O unit for standard: 256 KiB
	-- is the project default, not a sourced figure.
	('standard', '2020-12-01', 1, 1024, 0, 200, 0,
		0, 90, 0, 0, 0, 256,
		'ebs-facts.md T1 [S4 A1]; io_unit_kib 256 not stated by docs (project default)');
