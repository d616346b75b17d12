/*
 * outfile.c - a result file written under a temporary name and renamed
 * into place when complete (see outfile.h).
 *
 * The signal handler only unlinks the temporary names registered here,
 * writes the messages prepared for them (write(2)) and re-raises: it
 * touches no stdio and no heap.  The registry is changed
 * with those signals blocked, so the handler never sees a half-made entry.
 * Not thread-safe (ebsize is single-threaded).
 */
#include "ebsize/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ebsize/err.h"
#include "ebsize/util.h"

#define OUTFILE_MAX 8

struct outfile {
	char *path; /* final name */
	char *tmp;  /* temporary name (== path when direct) */
	FILE *f;
	mode_t mode; /* of the final file */
	int direct;  /* written in place: not a regular file */
	int slot;    /* index in tmp_names, -1 when direct */
	char *gone;  /* "error: interrupted: 'PATH' not written\n" */
};

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved[ARRAY_SIZE(caught)];
static struct sigaction saved_xfsz;
/* temporary names the handler removes, and what it says; read in the handler */
static char *volatile tmp_names[OUTFILE_MAX];
static char *volatile gone_msgs[OUTFILE_MAX];
static size_t nregistered;
/* outfile_on_interrupt's message (NULL: none); read in the handler */
static const char *volatile interrupt_msg;

/* ------------------------------------------------------------ signals */

static void on_signal(int sig)
{
	for (size_t i = 0; i < OUTFILE_MAX; i++) {
		if (!tmp_names[i])
			continue;
		unlink(tmp_names[i]);
		if (gone_msgs[i] && write(STDERR_FILENO, gone_msgs[i],
					  strlen(gone_msgs[i])) < 0)
			continue; /* nothing more to do about stderr */
	}
	if (interrupt_msg && write(STDERR_FILENO, (const char *)interrupt_msg,
				   strlen((const char *)interrupt_msg)) < 0)
		interrupt_msg = NULL;
	/* then do what the signal did before: usually, die of it */
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		if (caught[i] == sig)
			sigaction(sig, &saved[i], NULL);
	raise(sig);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* The first registration installs the handlers; signals ignored stay so. */
static void install_handlers(void)
{
	struct sigaction sa, ign;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++) {
		sigaction(caught[i], NULL, &saved[i]);
		if (saved[i].sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGXFSZ, &ign, &saved_xfsz);
}

static void restore_handlers(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		sigaction(caught[i], &saved[i], NULL);
	sigaction(SIGXFSZ, &saved_xfsz, NULL);
}

/* Put of's temporary name in the registry; -1 when it is full. */
static int register_tmp(struct outfile *of)
{
	sigset_t old;
	int slot = -1;

	block_signals(&old);
	for (int i = 0; i < OUTFILE_MAX && slot < 0; i++)
		if (!tmp_names[i])
			slot = i;
	if (slot >= 0) {
		if (!nregistered++ && !interrupt_msg)
			install_handlers();
		tmp_names[slot] = of->tmp;
		gone_msgs[slot] = of->gone;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	of->slot = slot;
	return slot < 0 ? -1 : 0;
}

/*
 * Take of out of the registry; when rename_to_final, rename the
 * temporary file first, with the signals still blocked so that a signal
 * cannot remove a file that has just become the result.  Returns the
 * rename's result (0 when there is none), errno set.
 */
static int unregister_tmp(struct outfile *of, int rename_to_final)
{
	sigset_t old;
	int rc = 0, saved_errno = 0;

	block_signals(&old);
	if (rename_to_final && rename(of->tmp, of->path)) {
		rc = -1;
		saved_errno = errno;
	}
	if (of->slot >= 0) {
		tmp_names[of->slot] = NULL;
		gone_msgs[of->slot] = NULL;
		of->slot = -1;
		if (!--nregistered && !interrupt_msg)
			restore_handlers();
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = saved_errno;
	return rc;
}

void outfile_on_interrupt(const char *msg)
{
	sigset_t old;

	block_signals(&old);
	if (msg && !interrupt_msg && !nregistered)
		install_handlers();
	else if (!msg && interrupt_msg && !nregistered)
		restore_handlers();
	interrupt_msg = msg;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ------------------------------------------------------------ files */

static void outfile_free(struct outfile *of)
{
	if (of->tmp != of->path)
		free(of->tmp);
	free(of->gone);
	free(of->path);
	free(of);
}

/* "DIR/.BASE.XXXXXX" for path (DIR "." when path has no slash). */
static char *tmp_template(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrfmt(".%s.XXXXXX", path);
	return xstrfmt("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
}

/* Write in place: path exists and is not a regular file. */
static int open_direct(struct outfile *of, char *err)
{
	of->direct = 1;
	of->tmp = of->path;
	of->slot = -1;
	of->f = fopen(of->path, "w");
	if (!of->f)
		return ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s",
				of->path, strerror(errno));
	return EBS_OK;
}

int outfile_open(const char *path, unsigned flags, struct outfile **out,
		 char *err)
{
	struct outfile *of = xcalloc(1, sizeof(*of));
	struct stat st;
	mode_t mask;
	int fd, rc;

	*out = NULL;
	of->path = xstrdup(path);
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s", path,
			      strerror(EISDIR));
		goto fail;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (flags & OUTFILE_REGULAR) {
			rc = ebs_fail(err, EBS_ERR_IO,
				      "cannot write '%s': not a regular file",
				      path);
			goto fail;
		}
		if ((rc = open_direct(of, err)))
			goto fail;
		*out = of;
		return EBS_OK;
	}
	if (!stat(path, &st)) {
		of->mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		of->mode = 0666 & ~mask;
	}
	of->tmp = tmp_template(path);
	fd = mkstemp(of->tmp);
	if (fd < 0) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot create '%s': %s", path,
			      strerror(errno));
		goto fail;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	of->gone = xstrfmt("error: interrupted: '%s' not written\n", path);
	of->f = fdopen(fd, "w");
	if (!of->f || register_tmp(of)) {
		rc =
		    ebs_fail(err, EBS_ERR_IO, "cannot create '%s': %s", path,
			     of->f ? "too many output files" : strerror(errno));
		if (of->f)
			fclose(of->f);
		else
			close(fd);
		unlink(of->tmp);
		goto fail;
	}
	*out = of;
	return EBS_OK;
fail:
	outfile_free(of);
	return rc;
}

FILE *outfile_stream(struct outfile *of)
{
	return of->f;
}

const char *outfile_tmp_path(const struct outfile *of)
{
	return of->tmp;
}

const char *outfile_path(const struct outfile *of)
{
	return of->path;
}

/* Flush, sync, set the final mode and close; 0 or an errno value. */
static int finish_stream(struct outfile *of)
{
	int e = 0;

	if (fflush(of->f) || ferror(of->f))
		e = errno ? errno : EIO;
	if (!e && !of->direct && fsync(fileno(of->f)))
		e = errno;
	if (!e && !of->direct && fchmod(fileno(of->f), of->mode))
		e = errno;
	if (fclose(of->f) && !e)
		e = errno ? errno : EIO;
	of->f = NULL;
	return e;
}

int outfile_commit(struct outfile *of, char *err)
{
	int e = finish_stream(of), rc = EBS_OK;

	if (of->direct) {
		if (e)
			rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s",
				      of->path, strerror(e));
		outfile_free(of);
		return rc;
	}
	if (e) {
		unlink(of->tmp);
		unregister_tmp(of, 0);
		rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s",
			      of->path, strerror(e));
	} else if (unregister_tmp(of, 1)) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s",
			      of->path, strerror(errno));
		unlink(of->tmp);
	}
	outfile_free(of);
	return rc;
}

void outfile_abort(struct outfile *of)
{
	if (!of)
		return;
	if (of->f)
		fclose(of->f);
	if (!of->direct) {
		unlink(of->tmp);
		unregister_tmp(of, 0);
	}
	outfile_free(of);
}
