-- Published fio benchmark results (seed-benchmarks.md sections A, B, C).
-- Summaries only, as published: NULL = not published, never zero and never
-- computed here.  Ranges and approximate ("~", "≈") figures are explained in
-- notes.  No per-second series was published, so bench_samples stays empty.
-- started_at is NULL: only publication dates are known (in provenance).

INSERT INTO bench_runs (id, label, source, provenance, volume_type, size_gib,
	iops, throughput_mibps, instance_type, region, fio_version, status, notes) VALUES
	-- A: seed-benchmarks.md A (gp3 100 GiB, 3,000 IOPS, 125 MiB/s)
	(1, 'published-A-gp3-100', 'published',
		'"EBS gp2 vs gp3 measured benchmark" (Kubernetes docs article; updated 2026-09-11); sections "The measurement suite" and "Results"; via seed-benchmarks.md A',
		'gp3', 100, 3000, 125, 'm5.xlarge', 'ap-northeast-2', 'fio-3.36', 'complete',
		'Amazon EKS; Kubernetes 1.36; EBS CSI driver; encrypted volume; pod alpine 3.20 + fio 3.36; ioengine=libaio direct=1 group_reporting output-format=json; 8 GiB test file. '
		|| 'Volumes never measured at the same time; each phase ran on gp3 first then gp2. '
		|| 'Phase 0 (layout: sequential 1M write of the 8 GiB file) has no published figures and is omitted; seq = the article''s phase number. '
		|| 'Latency kind (clat vs total) not stated in the write-up. '
		|| 'Node m5.xlarge EBS limits per the article: baseline 6,000 IOPS / 1,150 Mbps = 143.75 MB/s (~137 MiB/s); burst 18,750 IOPS / 4,750 Mbps. '
		|| 'Article prices (Seoul; Sept 2026): gp3 $0.0912/GB-mo; $0.0057/IOPS-mo above 3,000; $0.0456/MiB/s-mo above 125. '
		|| 'Article cost table: gp3 100 GiB $9.12 (3,000 IOPS; 125 MiB/s); gp3 100 GiB + 6,000 IOPS $26.22; gp3 100 GiB + 250 MiB/s $14.82.'),
	-- A: seed-benchmarks.md A (gp2 100 GiB; IOPS/throughput not provisionable)
	(2, 'published-A-gp2-100', 'published',
		'"EBS gp2 vs gp3 measured benchmark" (Kubernetes docs article; updated 2026-09-11); sections "The measurement suite" and "Results"; via seed-benchmarks.md A',
		'gp2', 100, NULL, NULL, 'm5.xlarge', 'ap-northeast-2', 'fio-3.36', 'complete',
		'Amazon EKS; Kubernetes 1.36; EBS CSI driver; encrypted volume; pod alpine 3.20 + fio 3.36; ioengine=libaio direct=1 group_reporting output-format=json; 8 GiB test file. '
		|| 'Volumes never measured at the same time; each phase ran on gp3 first then gp2. '
		|| 'Phase 0 (layout: sequential 1M write of the 8 GiB file) has no published figures and is omitted; seq = the article''s phase number. '
		|| 'Latency kind (clat vs total) not stated in the write-up. '
		|| 'Article checks: 100 GiB gp2 baseline 300 IOPS; burst duration 5,400,000 / (3,000 - 300) = 2,000 s (measured 1,999 s); '
		|| 'Little''s law 32 in flight / 300 IOPS = 106.7 ms and 32 / 3,000 = 10.7 ms; '
		|| 'a gp2 volume idle T s earns 300*T credits and spending them over a test of length T doubles delivered IOPS (601 after 120 s idle; 603 after 60 s); '
		|| 'sequential 1 MiB I/O counts as four 256 KiB operations: 130 MiB/s ~ 520 IOPS. '
		|| 'A prior 8-minute load about 13 minutes before the run did not move the cliff earlier as a naive credit model predicts; the article treats the AWS formula (2,000 s) as the planning number. '
		|| 'Article prices (Seoul; Sept 2026): gp2 $0.114/GB-mo. Article cost table: gp2 100 GiB $11.40 (300 sustained IOPS; 3,000 burst <= 33 min; 128 MiB/s); '
		|| 'gp2 1,000 GiB "sized for IOPS" $114.00 (3,000 IOPS; 250 MiB/s) = 12.5x the gp3 100 GiB price.'),
	-- B: seed-benchmarks.md B (gp3 160 GiB at the raised limits)
	(3, 'published-B-gp3-160', 'published',
		'"gp3 limits raised" (Japanese tech blog; 2025-09-29); results table; via seed-benchmarks.md B',
		'gp3', 160, 80000, 2000, 'm8g.16xlarge', 'us-east-1', 'fio-3.36', 'complete',
		'Ubuntu 24.04; fio 3.36; ioengine=libaio direct=1; 10 GiB file; 300 s; numjobs=64; iodepth not set (fio default 1). '
		|| 'Instance EBS max per the blog: 20,000 Mbps / 2,500 MB/s / 80,000 IOPS. '
		|| 'Blog cost of a maximal gp3 in Tokyo (64 TiB; 80,000 IOPS; 2,000 MiB/s; 2025 prices): 65,536 x $0.096 + 77,000 x $0.006 + 1,875 x $0.048 = $6,843.46 per month.'),
	-- C: seed-benchmarks.md C (c5d.large, 8 GiB volumes, 2020)
	(4, 'published-C-standard-8', 'published',
		'"New gp3 is worth switching to" (Japanese tech blog; 2020); results table; via seed-benchmarks.md C',
		'standard', 8, NULL, NULL, 'c5d.large', NULL, NULL, 'complete',
		'Magnetic (standard) volume. fio randread 4k; numjobs=4; size 1G; 180 s; direct=1; norandommap; psync engine (qd 1 per job). Region and fio version not published.'),
	(5, 'published-C-gp2-8', 'published',
		'"New gp3 is worth switching to" (Japanese tech blog; 2020); results table; via seed-benchmarks.md C',
		'gp2', 8, NULL, NULL, 'c5d.large', NULL, NULL, 'complete',
		'gp2 8 GiB: bursting; baseline only 100 IOPS (per the blog). fio randread 4k; numjobs=4; size 1G; 180 s; direct=1; norandommap; psync engine (qd 1 per job). Region and fio version not published.'),
	(6, 'published-C-gp3-8', 'published',
		'"New gp3 is worth switching to" (Japanese tech blog; 2020); results table; via seed-benchmarks.md C',
		'gp3', 8, NULL, NULL, 'c5d.large', NULL, NULL, 'complete',
		'Provisioned IOPS/throughput not published (the blog notes the console suggested 4,000 IOPS for gp3 at the time); the blog also notes that changing a root volume''s type dropped the SSH session once. '
		|| 'fio randread 4k; numjobs=4; size 1G; 180 s; direct=1; norandommap; psync engine (qd 1 per job). Region and fio version not published.'),
	(7, 'published-C-instance-store', 'published',
		'"New gp3 is worth switching to" (Japanese tech blog; 2020); results table; via seed-benchmarks.md C',
		'instance-store', NULL, NULL, NULL, 'c5d.large', NULL, NULL, 'complete',
		'Instance store (NVMe) of the c5d.large: NOT an EBS volume; kept as the blog''s comparison point. Size not published. '
		|| 'fio randread 4k; numjobs=4; size 1G; 180 s; direct=1; norandommap; psync engine (qd 1 per job). Region and fio version not published.');

INSERT INTO bench_phases (run_id, seq, phase, rw, bs, iodepth, numjobs, runtime_s,
	iops, bw_mibps, lat_mean_ms, p50_ms, p95_ms, p99_ms, p999_ms, iops_min, iops_max, samples,
	cliff_t_s, iops_before_cliff, iops_after_cliff, cliff_transition_s,
	lat_before_cliff_ms, lat_after_cliff_ms, notes) VALUES
	-- A gp3 (run 1)
	(1, 1, 'randread-qd32', 'randread', '4k', 32, NULL, 600,
		3001, NULL, 10.4, NULL, NULL, 12.9, NULL, 2991, 3004, 600,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'time_based; per-second IOPS log (write_iops_log; log_avg_msec=1000). IOPS = published average over 600 s. No credit cliff. '
		|| 'p50 published as a range 10.0-10.2 ms (not stored). First 1-s sample 5,997 IOPS excluded from the published summaries.'),
	(1, 2, 'randwrite-qd32', 'randwrite', '4k', 32, NULL, 120,
		3025, NULL, 10.3, 10.2, 11.2, 12.0, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL, NULL),
	(1, 3, 'randread-qd1', 'randread', '4k', 1, NULL, 60,
		1759, NULL, 0.564, 0.569, 0.627, 0.872, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Completion latency at low concurrency.'),
	(1, 4, 'seqread', 'read', '1M', 8, NULL, 60,
		NULL, 127.3, 58.0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Throughput ceiling. Only MiB/s and mean latency were published; IOPS not published.'),
	(1, 5, 'seqwrite', 'write', '1M', 8, NULL, 60,
		NULL, 126.0, 58.5, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Throughput ceiling. Only MiB/s and mean latency were published; IOPS not published.'),
	-- A gp2 (run 2)
	(2, 1, 'randread-qd32', 'randread', '4k', 32, NULL, 2700,
		NULL, NULL, NULL, NULL, NULL, 109.6, NULL, NULL, NULL, 2699,
		1999, 3001, 300, 2, 10.4, 106,
		'time_based; per-second IOPS log (write_iops_log; log_avg_msec=1000). No whole-run IOPS average or mean latency was published: iops and lat_mean_ms left NULL. '
		|| 'Published IOPS: 3,001 avg over 0-1,999 s (min 2,997; max 3,005); then 300 avg over 2,000-2,700 s (min 297; max 304); whole-run min/max not published. '
		|| 'Cliff at 1,999 s: 3,001 IOPS at 1,998 s -> 2,659 at 1,999 s -> 300 at 2,000 s; cliff_transition_s 2 = from the last pre-cliff sample (1,998 s) to the first post-cliff sample (2,000 s). '
		|| 'Latency published as approximate: mean ~10.4 ms before and ~106 ms after the cliff. p50 published as a range 10.0-10.2 ms before the cliff (not stored). p99 109.6 ms is for the whole run. '
		|| 'First 1-s sample 5,997 IOPS excluded from the published summaries.'),
	(2, 2, 'randwrite-qd32', 'randwrite', '4k', 32, NULL, 120,
		601, NULL, 52.0, 11.1, 109.6, 133.7, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'gp2 had spent its burst credits in phase 1. 601 IOPS = 300 baseline + 36,000 credits earned in 120 s idle; spent over 120 s (article''s explanation).'),
	(2, 3, 'randread-qd1', 'randread', '4k', 1, NULL, 60,
		603, NULL, 1.651, 0.602, 3.391, 3.555, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Completion latency at low concurrency. 603 IOPS = 300 baseline + 18,000 credits from 60 s idle (article''s explanation).'),
	(2, 4, 'seqread', 'read', '1M', 8, NULL, 60,
		NULL, 130.3, 56.7, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Throughput ceiling. Only MiB/s and mean latency were published; IOPS not published (the article notes 130 MiB/s of 1 MiB I/O ~ 520 IOPS of 256 KiB).'),
	(2, 5, 'seqwrite', 'write', '1M', 8, NULL, 60,
		NULL, 128.9, 57.3, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Throughput ceiling. Only MiB/s and mean latency were published; IOPS not published.'),
	-- B (run 3)
	(3, 1, 'randwrite', 'randwrite', '4k', 1, 64, 300,
		80012, NULL, 0.796, 0.799, NULL, 0.996, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Published as 80,012 IOPS (80.0k); latencies are clat. iodepth = fio default (1).'),
	(3, 2, 'seqread', 'read', '1M', 1, 64, 300,
		2007, 2008, 14.6, 14.1, NULL, 21.4, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Published as 2,008 MiB/s (2,007 IOPS); latencies are clat. iodepth = fio default (1).'),
	-- C (runs 4-7): one phase each
	(4, 1, 'randread', 'randread', '4k', 1, 4, 180,
		1100, 4.6, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Approximate published figures: ~1,100 IOPS; ~4.6 MB/s. bw_mibps holds the approximate published figure in the write-up''s unit (MB/s) - not converted to MiB/s.'),
	(5, 1, 'randread', 'randread', '4k', 1, 4, 180,
		3000, 12, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Approximate published figures: ~3,000 IOPS; ~12 MB/s. bw_mibps holds the approximate published figure in the write-up''s unit (MB/s) - not converted to MiB/s.'),
	(6, 1, 'randread', 'randread', '4k', 1, 4, 180,
		3000, 12, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Approximate published figures: ~3,000 IOPS; ~12 MB/s. bw_mibps holds the approximate published figure in the write-up''s unit (MB/s) - not converted to MiB/s.'),
	(7, 1, 'randread', 'randread', '4k', 1, 4, 180,
		20000, 80, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL,
		'Approximate published figures: ~20,000 IOPS; ~80 MB/s. bw_mibps holds the approximate published figure in the write-up''s unit (MB/s) - not converted to MiB/s.');
