/*
 * bench_run.c - the edge between ebsize and fio: finding fio, deciding
 * whether a target may be written (before anything runs), spawning fio
 * with posix_spawn and an argv array (never a shell), watching it for the
 * progress line, and reading back the JSON and IOPS logs it left in the
 * run's results directory.  It never prints (progress goes through a
 * callback) and never touches the database.
 */
#define _GNU_SOURCE /* O_DIRECT */
#include "ebsize/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <linux/aio_abi.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ebsize/fio_parse.h"
#include "ebsize/util.h"

extern char **environ;

/* ------------------------------------------------------------ fio */

/* Find an executable on PATH into path; 0 found, -1 not. */
static int find_on_path(const char *name, char *path, size_t n)
{
	const char *p = getenv("PATH");

	if (!p || !*p)
		p = "/usr/bin:/bin";
	for (;;) {
		size_t len = strcspn(p, ":");

		/* an empty entry means the current directory */
		xsnprintf(path, n, "%.*s/%s", len ? (int)len : 1, len ? p : ".",
			  name);
		if (!access(path, X_OK))
			return 0;
		if (!p[len])
			return -1;
		p += len + 1;
	}
}

int bench_find_fio(char *path, size_t n, char *err, char *hint)
{
	if (!find_on_path("fio", path, n))
		return EBS_OK;
	xsnprintf(
	    hint, EBS_ERRLEN,
	    "install fio: 'apt-get install fio' (Debian, Ubuntu), 'dnf install fio' (Fedora, RHEL), 'apk add fio' (Alpine)");
	return ebs_fail(err, EBS_ERR_NOT_FOUND,
			"fio is not installed (not found on PATH)");
}

/* ------------------------------------------------------------ target */

static const struct {
	long magic;
	const char *name;
} fs_names[] = {
	{ 0xEF53, "ext4" }, /* ext2/3/4 share the magic */
	{ 0x58465342, "xfs" },	   { 0x9123683E, "btrfs" },
	{ 0x01021994, "tmpfs" },   { (long)0x858458f6, "ramfs" },
	{ 0x794c7630, "overlay" }, { 0x6969, "nfs" },
	{ 0x65735546, "fuse" },	   { 0x2fc12fc1, "zfs" },
	{ 0x5346544e, "ntfs" },	   { 0x4d44, "vfat" },
};

static void fs_name(const char *path, char *out, size_t n)
{
	struct statfs sf;

	out[0] = '\0';
	if (statfs(path, &sf))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(fs_names); i++)
		if ((long)sf.f_type == fs_names[i].magic) {
			xsnprintf(out, n, "%s", fs_names[i].name);
			return;
		}
	xsnprintf(out, n, "0x%lx", (unsigned long)sf.f_type);
}

/* First line of a small sysfs file into out ("" if unreadable). */
static void sys_read(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(out, (int)n, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
	while (*out && out[strlen(out) - 1] == ' ')
		out[strlen(out) - 1] = '\0';
}

/*
 * Device name of dev and, when it is an NVMe EBS volume, its volume id:
 * the controller's serial "vol0123..." (model "Amazon Elastic Block
 * Store") is the id without its dash.
 */
static void device_info(dev_t dev, struct bench_target_info *info)
{
	char sys[128], real[PATH_MAX], buf[256], model[128], serial[64];
	const char *up = "";

	xsnprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev),
		  minor(dev));
	if (!realpath(sys, real))
		return;
	xsnprintf(info->device, sizeof(info->device), "%s", basename(real));
	xsnprintf(buf, sizeof(buf), "%s/partition", sys);
	if (!access(buf, F_OK))
		up = "/..";
	xsnprintf(buf, sizeof(buf), "%s%s/device/model", sys, up);
	sys_read(buf, model, sizeof(model));
	xsnprintf(buf, sizeof(buf), "%s%s/device/serial", sys, up);
	sys_read(buf, serial, sizeof(serial));
	if (strstr(model, "Elastic Block Store") &&
	    str_starts_with(serial, "vol") && serial[3] != '-')
		xsnprintf(info->ebs_volume_id, sizeof(info->ebs_volume_id),
			  "vol-%s", serial + 3);
	else if (strstr(model, "Elastic Block Store"))
		xsnprintf(info->ebs_volume_id, sizeof(info->ebs_volume_id),
			  "%s", serial);
}

/* Absolute form of target: realpath of its directory + its name. */
static int absolute(const char *target, char *out, size_t n, char *dir,
		    size_t dn, char *err)
{
	char *a = xstrdup(target), *b = xstrdup(target);
	char *real = realpath(dirname(a), NULL);
	int rc = EBS_OK;

	if (!real)
		rc = ebs_fail(err, EBS_ERR_IO, "cannot use target '%s': %s",
			      target, strerror(errno));
	else if (xsnprintf_fit(dir, dn, "%s", real) ||
		 xsnprintf_fit(out, n, "%s/%s", strcmp(real, "/") ? real : "",
			       basename(b)))
		rc = ebs_fail(
		    err, EBS_ERR_TOO_BIG,
		    "cannot use target '%s': its absolute path is longer than %zu bytes",
		    target, n - 1);
	free(real);
	free(a);
	free(b);
	return rc;
}

/* O_DIRECT on the target's file system: open the file, or a probe. */
static int check_odirect(const struct bench_target_info *info, const char *dir,
			 char *err, char *hint)
{
	int fd, e;

	if (info->exists) {
		fd = open(info->path, O_RDONLY | O_DIRECT);
	} else {
		char *probe = xstrfmt("%s/.ebsize-odirect-probe.%ld", dir,
				      (long)getpid());

		fd = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_DIRECT, 0600);
		e = errno;
		unlink(probe);
		free(probe);
		errno = e;
	}
	if (fd >= 0) {
		close(fd);
		return EBS_OK;
	}
	if (errno == EINVAL) {
		xsnprintf(
		    hint, EBS_ERRLEN,
		    "put --target on a disk-backed file system (ext4, xfs) on the volume to measure; through the page cache fio would measure memory, not the volume");
		return ebs_fail(
		    err, EBS_ERR_EXEC,
		    "the file system of '%s' (%s) does not support O_DIRECT, which fio needs for direct=1",
		    info->path,
		    info->filesystem[0] ? info->filesystem : "unknown");
	}
	return ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s",
			info->exists ? info->path : dir, strerror(errno));
}

/* The kernel's native AIO, which fio's libaio engine needs. */
static int check_aio(char *err, char *hint)
{
	aio_context_t ctx = 0;

	if (syscall(SYS_io_setup, 1, &ctx) == 0) {
		syscall(SYS_io_destroy, ctx);
		return EBS_OK;
	}
	if (errno == EAGAIN)
		xsnprintf(
		    hint, EBS_ERRLEN,
		    "raise fs.aio-max-nr (sysctl -w fs.aio-max-nr=1048576) or stop other AIO users");
	else
		xsnprintf(
		    hint, EBS_ERRLEN,
		    "use a kernel built with CONFIG_AIO; in a container, allow the io_setup system call (seccomp)");
	return ebs_fail(err, EBS_ERR_EXEC,
			"libaio is not available: io_setup failed: %s",
			strerror(errno));
}

static int refuse(const struct bench_target_info *info, const char *what,
		  char *err, char *hint)
{
	xsnprintf(
	    hint, EBS_ERRLEN,
	    "fio writes over the whole %s; pass --destructive only if nothing on it matters, or choose a new file with --target",
	    info->is_block ? "device" : "file");
	return ebs_fail(
	    err, EBS_ERR_ILLEGAL,
	    "refusing to run fio on '%s': it is %s, and the benchmark's writes would destroy its data",
	    info->path, what);
}

static int check_space(const struct bench_target_info *info, const char *dir,
		       uint64_t size_bytes, uint64_t have, char *err)
{
	struct statvfs sv;
	uint64_t avail, need = size_bytes > have ? size_bytes - have : 0;

	if (statvfs(dir, &sv))
		return ebs_fail(err, EBS_ERR_IO,
				"cannot check free space on '%s': %s", dir,
				strerror(errno));
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (sv.f_blocks == 0)
		return EBS_OK; /* ramfs and friends report no size */
	if (need > avail)
		return ebs_fail(
		    err, EBS_ERR_IO,
		    "not enough free space for the test file '%s': it needs %.1f MiB more, '%s' has %.1f MiB free",
		    info->path, (double)need / 1048576.0, dir,
		    (double)avail / 1048576.0);
	return EBS_OK;
}

int bench_check_target(const char *target, uint64_t size_bytes, int destructive,
		       int created_by_us, struct bench_target_info *info,
		       char *err, char *hint)
{
	char dir[PATH_MAX];
	struct stat sb;
	int rc;

	memset(info, 0, sizeof(*info));
	hint[0] = '\0';
	if ((rc = absolute(target, info->path, sizeof(info->path), dir,
			   sizeof(dir), err)))
		return rc;
	/* lstat: a link must not pass for the file it points to */
	if (!lstat(info->path, &sb)) {
		info->exists = 1;
		info->dev = (unsigned long long)sb.st_dev;
		info->ino = (unsigned long long)sb.st_ino;
		info->is_symlink = S_ISLNK(sb.st_mode);
		if (info->is_symlink && !destructive)
			return refuse(info, "a symbolic link", err, hint);
		if (info->is_symlink && stat(info->path, &sb))
			return ebs_fail(err, EBS_ERR_IO,
					"cannot use target '%s': %s",
					info->path, strerror(errno));
		info->is_block = S_ISBLK(sb.st_mode);
		if (info->is_block && !destructive)
			return refuse(info, "a block device", err, hint);
		if (!info->is_block && !S_ISREG(sb.st_mode))
			return ebs_fail(
			    err, EBS_ERR_USAGE,
			    "target '%s' is not a regular file or a block device",
			    info->path);
		if (!info->is_block && !created_by_us && !destructive)
			return refuse(info,
				      "an existing file ebsize did not create",
				      err, hint);
		device_info(info->is_block ? sb.st_rdev : sb.st_dev, info);
	} else if (errno != ENOENT) {
		return ebs_fail(err, EBS_ERR_IO, "cannot use target '%s': %s",
				info->path, strerror(errno));
	} else if (!stat(dir, &sb)) {
		device_info(sb.st_dev, info);
	}
	if (!info->is_block)
		fs_name(dir, info->filesystem, sizeof(info->filesystem));
	if ((rc = check_odirect(info, dir, err, hint)))
		return rc;
	if (!info->is_block &&
	    (rc = check_space(info, dir, size_bytes,
			      info->exists ? (uint64_t)sb.st_size : 0, err)))
		return rc;
	return check_aio(err, hint);
}

int bench_target_short(const char *path, uint64_t size)
{
	struct stat sb;

	return !lstat(path, &sb) && S_ISREG(sb.st_mode) &&
	       (uint64_t)sb.st_size < size;
}

int bench_target_relearn(const char *path, unsigned long long *dev,
			 unsigned long long *ino, char *err)
{
	struct stat sb;

	if (lstat(path, &sb) || !S_ISREG(sb.st_mode))
		return ebs_fail(
		    err, EBS_ERR_ILLEGAL,
		    "refusing to go on with fio on '%s': after fio laid it out it is not a regular file",
		    path);
	*dev = (unsigned long long)sb.st_dev;
	*ino = (unsigned long long)sb.st_ino;
	return EBS_OK;
}

int bench_create_target(struct bench_target_info *info, char *err)
{
	struct stat sb;
	int fd =
	    open(info->path,
		 O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0600);

	if (fd < 0 && errno == EEXIST)
		return ebs_fail(
		    err, EBS_ERR_ILLEGAL,
		    "refusing to run fio on '%s': it appeared after ebsize checked it",
		    info->path);
	if (fd < 0)
		return ebs_fail(err, EBS_ERR_IO, "cannot create '%s': %s",
				info->path, strerror(errno));
	if (fstat(fd, &sb)) {
		close(fd);
		return ebs_fail(err, EBS_ERR_IO, "cannot stat '%s': %s",
				info->path, strerror(errno));
	}
	close(fd);
	info->exists = 1;
	info->dev = (unsigned long long)sb.st_dev;
	info->ino = (unsigned long long)sb.st_ino;
	return EBS_OK;
}

int bench_verify_target(const char *path, unsigned long long dev,
			unsigned long long ino, char *err)
{
	struct stat sb;

	if (lstat(path, &sb))
		return ebs_fail(
		    err, EBS_ERR_ILLEGAL,
		    "refusing to go on with fio on '%s': it is gone since ebsize checked it (%s)",
		    path, strerror(errno));
	if ((unsigned long long)sb.st_dev != dev ||
	    (unsigned long long)sb.st_ino != ino)
		return ebs_fail(
		    err, EBS_ERR_ILLEGAL,
		    "refusing to go on with fio on '%s': it was replaced since ebsize checked it (another file or a symbolic link)",
		    path);
	return EBS_OK;
}

void bench_host_info(char *host, size_t hn, char *kernel, size_t kn)
{
	struct utsname u;

	if (uname(&u)) {
		host[0] = kernel[0] = '\0';
		return;
	}
	xsnprintf(host, hn, "%s", u.nodename);
	xsnprintf(kernel, kn, "%s %s", u.sysname, u.release);
}

int bench_lock_run(const char *dir, int *fd, char *err)
{
	char *path = xstrfmt("%s/.lock", dir);
	int rc = EBS_OK;

	*fd = -1;
	if ((rc = mkdir_parents(path, err)))
		goto out;
	*fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (*fd < 0) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot create '%s': %s", path,
			      strerror(errno));
		goto out;
	}
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		close(*fd);
		*fd = -1;
		rc = ebs_fail(
		    err, EBS_ERR_ILLEGAL,
		    "the run in '%s' is being measured by another ebsize process",
		    dir);
	}
out:
	free(path);
	return rc;
}

/* ------------------------------------------------------------ outputs */

/* Job names of r, each once, in order of appearance. */
static size_t distinct_jobs(const struct fio_result *r, const char **names)
{
	size_t n = 0;

	for (size_t i = 0; i < r->njobs; i++) {
		size_t k;

		for (k = 0; k < n; k++)
			if (!strcmp(names[k], r->jobs[i].name))
				break;
		if (k == n)
			names[n++] = r->jobs[i].name;
	}
	return n;
}

/* Samples of the logs of one phase (several per-job logs are added). */
static int read_logs(char *const *logs, size_t nlogs, struct bench_sample **out,
		     size_t *n, char *err)
{
	int rc = EBS_OK;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < nlogs && !rc; i++) {
		struct bench_sample *s = NULL;
		size_t ns = 0, len;
		char *data = NULL;

		if (!(rc = read_file_capped(logs[i], FIO_LOG_CAP, &data, &len,
					    err)) &&
		    !(rc =
			  fio_parse_iops_log(data, len, logs[i], &s, &ns, err)))
			fio_samples_merge(out, n, s, ns);
		free(data);
		free(s);
	}
	return rc;
}

int bench_read_outputs(const char *json_path, char *const *logs, size_t nlogs,
		       struct bench_phase_result **out,
		       struct bench_sample ***samples, size_t **nsamples,
		       size_t *nphases, char *fio_version, size_t fvn,
		       int *interrupted, char *err)
{
	struct fio_result r = { 0 };
	const char **names = NULL;
	char *data = NULL;
	size_t len, n = 0;
	int rc;

	*out = NULL;
	*samples = NULL;
	*nsamples = NULL;
	*nphases = 0;
	if ((rc =
		 read_file_capped(json_path, FIO_JSON_CAP, &data, &len, err)) ||
	    (rc = fio_parse_result(data, len, json_path, &r, err)))
		goto out;
	xsnprintf(fio_version, fvn, "%s", r.version);
	*interrupted = r.interrupted;
	names = xcalloc(r.njobs, sizeof(*names));
	n = distinct_jobs(&r, names);
	*out = xcalloc(n, sizeof(**out));
	*samples = xcalloc(n, sizeof(**samples));
	*nsamples = xcalloc(n, sizeof(**nsamples));
	for (size_t k = 0; k < n; k++) {
		if ((rc = fio_result_phase(&r, names[k], json_path, &(*out)[k],
					   err)))
			goto out;
		(*nphases)++;
	}
	/* logs belong to the phase when there is one, else to none */
	if (nlogs && n == 1)
		rc = read_logs(logs, nlogs, &(*samples)[0], &(*nsamples)[0],
			       err);
out:
	if (rc) {
		for (size_t k = 0; *samples && k < n; k++)
			free((*samples)[k]);
		free(*out);
		free(*samples);
		free(*nsamples);
		*out = NULL;
		*samples = NULL;
		*nsamples = NULL;
		*nphases = 0;
	}
	free(names);
	free(data);
	fio_result_release(&r);
	return rc;
}

/* ------------------------------------------------------------ spawning */

/* The last "=VALUE IOPS]" of fio's status line ("91.9k"), or NAN. */
static double status_iops(const char *path)
{
	char buf[1024], *p, *eq;
	double v, mul = 1;
	ssize_t got;
	off_t size;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NAN;
	size = lseek(fd, 0, SEEK_END);
	lseek(fd,
	      size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0,
	      SEEK_SET);
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return NAN;
	buf[got] = '\0';
	for (p = buf; (eq = strstr(p, " IOPS]")); p = eq + 1)
		;
	if (p == buf || !(eq = strstr(p - 1, " IOPS]")))
		return NAN;
	*eq = '\0';
	p = strrchr(buf, '=');
	if (!p)
		return NAN;
	p++;
	if (*p && strchr("kKmM", eq[-1])) {
		mul = (eq[-1] | 0x20) == 'k' ? 1e3 : 1e6;
		eq[-1] = '\0';
	}
	return parse_nonneg_double(p, &v) ? NAN : v * mul;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* First non-empty line of fio's stderr, for the error message. */
static void first_line(const char *path, char *out, size_t n)
{
	char *data = NULL, *p;
	size_t len;
	char err[EBS_ERRLEN];

	out[0] = '\0';
	if (read_file_capped(path, 1u << 20, &data, &len, err))
		return;
	for (p = data; *p == '\n'; p++)
		;
	p[strcspn(p, "\n")] = '\0';
	xsnprintf(out, n, "%s", p);
	free(data);
}

/*
 * Spawn fio with args (args[0] is fio) and its stdout and stderr in
 * files.  With progress, fio runs under coreutils' stdbuf -o0 when there
 * is one: fio's status line is otherwise buffered for tens of seconds.
 */
static int spawn_fio(const char *fio, char **args, int progress,
		     const char *out_path, const char *err_path, pid_t *pid,
		     char *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char stdbuf[4096];
	const char *prog = fio;
	int rc;

	if (progress && !find_on_path("stdbuf", stdbuf, sizeof(stdbuf))) {
		args[-2] = stdbuf;
		args[-1] = (char *)"-o0";
		args -= 2;
		prog = stdbuf;
	}

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, err_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	/* its own process group: a stop reaches fio and all its workers */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	rc = posix_spawn(pid, prog, &fa, &attr, args, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return ebs_fail(err, EBS_ERR_EXEC, "cannot run '%s': %s", fio,
				strerror(rc));
	return EBS_OK;
}

/* Seconds fio has to end after SIGINT before it gets SIGKILL. */
#define FIO_GRACE_S 3.0

/*
 * Wait for pid (the leader of its own process group), calling progress
 * about every second when it is set; *status as waitpid.  Once *stop is
 * set, fio's group gets SIGINT (fio then ends the phase and writes its
 * JSON) and, FIO_GRACE_S later, SIGKILL: no fio outlives a stop.
 */
static void watch(pid_t pid, const char *status_path,
		  bench_progress_fn progress, void *arg,
		  volatile sig_atomic_t *stop, int *status)
{
	double t0 = now_s(), last = -1, stopped_at = -1;

	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return;
		if (w < 0 && errno != EINTR) {
			*status = -1;
			return;
		}
		if (stop && *stop && stopped_at < 0) {
			stopped_at = now_s();
			kill(-pid, SIGINT);
		} else if (stopped_at >= 0 &&
			   now_s() - stopped_at >= FIO_GRACE_S) {
			kill(-pid, SIGKILL);
			stopped_at = now_s(); /* again after another grace */
		}
		if (progress && w == 0 && now_s() - last >= 1.0) {
			last = now_s();
			progress(arg, last - t0, status_iops(status_path));
		}
		if (w == 0)
			usleep(50000);
	}
}

/* The paths of one phase's outputs in outdir (phase_paths_release). */
struct phase_paths {
	char *dir;
	char *json, *out, *err;
	char *log_prefix; /* fio's IOPS logs: PREFIX*.log */
};

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The IOPS logs of a phase: the files of dir named prefix...".log", as
 * "dir/name", sorted (fio numbers them per job).  The directory is listed
 * and names compared, never glob()bed: dir is the user's path and may hold
 * '*', '?' or '['.  *paths is NULL when there is none; free with
 * free_paths.
 */
static void list_logs(const char *dir, const char *prefix, char ***paths,
		      size_t *n)
{
	DIR *d = opendir(dir);
	size_t alloc = 0, plen = strlen(prefix);
	struct dirent *e;

	*paths = NULL;
	*n = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, plen) ||
		    !str_ends_with(e->d_name, ".log") ||
		    strlen(e->d_name) < plen + 4)
			continue;
		xgrow((void **)paths, &alloc, *n + 1, sizeof(**paths));
		(*paths)[(*n)++] = xstrfmt("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*paths, *n, sizeof(**paths), path_cmp);
}

static void free_paths(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

static void phase_paths_init(struct phase_paths *pp,
			     const struct bench_profile *pr, size_t i,
			     const char *outdir)
{
	char stem[BENCH_NAME_LEN + 8];
	char **logs;
	size_t n;

	bench_phase_stem(pr, i, stem, sizeof(stem));
	pp->dir = xstrdup(outdir);
	pp->json = xstrfmt("%s/%s.json", outdir, stem);
	pp->out = xstrfmt("%s/%s.stdout", outdir, stem);
	pp->err = xstrfmt("%s/%s.stderr", outdir, stem);
	pp->log_prefix = xstrfmt("%s_iops", stem);
	/* stale outputs of an interrupted attempt must not be read back */
	unlink(pp->json);
	list_logs(outdir, pp->log_prefix, &logs, &n);
	for (size_t k = 0; k < n; k++)
		unlink(logs[k]);
	free_paths(logs, n);
}

static void phase_paths_release(struct phase_paths *pp)
{
	free(pp->dir);
	free(pp->json);
	free(pp->out);
	free(pp->err);
	free(pp->log_prefix);
}

/*
 * fio's argv for phase i, with two free slots in front (for the stdbuf
 * prefix): the arguments start at (*args)[2].  *argc counts all slots.
 */
static char **phase_args(const char *fio, const struct bench_profile *pr,
			 size_t i, const char *target, const char *volume_type,
			 const char *outdir, int progress, size_t *argc)
{
	char **args = xcalloc(4, sizeof(*args));

	args[2] = xstrdup(fio);
	*argc = 3;
	bench_phase_argv(pr, i, target, volume_type, outdir, &args, argc);
	args = xrealloc(args, (*argc + 3) * sizeof(*args));
	args[(*argc)++] = xstrdup(progress ? "--eta=always" : "--eta=never");
	if (progress)
		args[(*argc)++] = xstrdup("--eta-newline=1");
	args[*argc] = NULL;
	return args;
}

/* Why fio did not end well (status as waitpid), into err. */
static int fio_failed(const struct bench_profile *pr, size_t i, int status,
		      const struct phase_paths *pp, const char *outdir,
		      char *err)
{
	char line[512];

	first_line(pp->err, line, sizeof(line));
	return ebs_fail(
	    err, EBS_ERR_EXEC,
	    "fio failed in phase '%s' (%s %d)%s%s; its output is in '%s'",
	    pr->phase[i].name, WIFSIGNALED(status) ? "signal" : "exit status",
	    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
	    line[0] ? ": " : "", line, outdir);
}

/* Read back the one phase fio wrote to pp: out and its samples. */
static int collect(const struct phase_paths *pp, struct bench_phase_result *out,
		   struct bench_sample **samples, size_t *nsamples,
		   char *fio_version, size_t fvn, int *interrupted, char *err)
{
	struct bench_phase_result *ph = NULL;
	struct bench_sample **ss = NULL;
	size_t nph = 0, *nss = NULL, nlogs;
	char **logs;
	int rc, intr = 0;

	list_logs(pp->dir, pp->log_prefix, &logs, &nlogs);
	rc = bench_read_outputs(pp->json, logs, nlogs, &ph, &ss, &nss, &nph,
				fio_version, fvn, &intr, err);
	if (!rc && nph != 1)
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "'%s': expected one fio job, found %zu", pp->json,
			      nph);
	*interrupted = intr;
	if (!rc) {
		*out = ph[0];
		*samples = ss[0];
		*nsamples = nss[0];
		ss[0] = NULL;
	}
	for (size_t k = 0; k < nph; k++)
		free(ss[k]);
	free(ss);
	free(nss);
	free(ph);
	free_paths(logs, nlogs);
	return rc;
}

/*
 * After a stop, the phase counts only when fio had finished it anyway
 * (exit 0; collect() then checks its JSON is complete).  Else
 * EBS_ERR_INTERRUPTED.
 */
static int stopped_early(const struct bench_profile *pr, size_t i,
			 volatile sig_atomic_t *stop, int status, char *err)
{
	if (!stop || !*stop)
		return EBS_OK;
	if (status != -1 && WIFEXITED(status) && !WEXITSTATUS(status))
		return EBS_OK;
	return ebs_fail(err, EBS_ERR_INTERRUPTED,
			"interrupted during phase '%s'", pr->phase[i].name);
}

int bench_run_phase(const char *fio, const struct bench_profile *pr, size_t i,
		    const char *target, const char *volume_type,
		    const char *outdir, bench_progress_fn progress, void *arg,
		    volatile sig_atomic_t *stop, struct bench_phase_result *out,
		    struct bench_sample **samples, size_t *nsamples,
		    char *fio_version, size_t fvn, char *err)
{
	struct phase_paths pp;
	char started[32];
	char **args;
	size_t argc;
	pid_t pid;
	int rc, status = 0, intr = 0;

	*samples = NULL;
	*nsamples = 0;
	phase_paths_init(&pp, pr, i, outdir);
	args = phase_args(fio, pr, i, target, volume_type, outdir,
			  progress != NULL, &argc);
	utc_now_iso(started);
	if ((rc = spawn_fio(fio, args + 2, progress != NULL, pp.out, pp.err,
			    &pid, err)))
		goto out;
	watch(pid, pp.out, progress, arg, stop, &status);
	rc = stopped_early(pr, i, stop, status, err);
	if (!rc && (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)))
		rc = fio_failed(pr, i, status, &pp, outdir, err);
	if (!rc)
		rc = collect(&pp, out, samples, nsamples, fio_version, fvn,
			     &intr, err);
	/* a stop that cut the phase short: not a measurement */
	if (stop && *stop && rc != EBS_ERR_INTERRUPTED && (rc || intr)) {
		free(*samples);
		*samples = NULL;
		*nsamples = 0;
		rc = ebs_fail(err, EBS_ERR_INTERRUPTED,
			      "interrupted during phase '%s'",
			      pr->phase[i].name);
	}
	if (rc)
		goto out;
	out->seq = (long)i;
	xsnprintf(out->phase, sizeof(out->phase), "%s", pr->phase[i].name);
	xsnprintf(out->started_at, sizeof(out->started_at), "%s", started);
	utc_now_iso(out->finished_at);
	xsnprintf(out->raw_output, sizeof(out->raw_output), "%s", pp.json);
out:
	for (size_t k = 2; k < argc; k++)
		free(args[k]);
	free(args);
	phase_paths_release(&pp);
	return rc;
}
