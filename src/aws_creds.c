/*
 * aws_creds.c - find AWS credentials: the environment first, then one
 * profile of the shared credentials file (an INI file).  It reads only
 * static keys; it does not run credential_process, SSO or IMDS.  The
 * secret is never put into an error message.
 */
#include "ebsize/aws_creds.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ebsize/err.h"
#include "ebsize/util.h"

#define CREDS_FILE_CAP (1u << 20)

/* Overwrite a secret before freeing it (not optimised away). */
static void wipe_free(char *s)
{
	volatile char *p = s;

	if (!s)
		return;
	while (*p)
		*p++ = '\0';
	free(s);
}

void aws_creds_release(struct aws_creds *c)
{
	if (!c)
		return;
	wipe_free(c->access_key_id);
	wipe_free(c->secret_access_key);
	wipe_free(c->session_token);
	memset(c, 0, sizeof(*c));
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/*
 * Set *dst to a copy of v when key matches name, ignoring case as the AWS
 * CLI does (it lower-cases keys: AWS_ACCESS_KEY_ID works).
 */
static void take_key(const char *key, const char *name, const char *v,
		     char **dst)
{
	if (strcasecmp(key, name))
		return;
	wipe_free(*dst);
	*dst = xstrdup(v);
}

/*
 * Walk the INI text line by line (a private copy, wiped afterwards),
 * picking aws_access_key_id, aws_secret_access_key and aws_session_token
 * in section [profile].  A UTF-8 byte order mark at the start (Windows
 * editors write one) is skipped.
 */
int aws_creds_from_ini(const char *buf, const char *profile,
		       const char *path, struct aws_creds *c, char *err)
{
	char *copy = xstrdup(buf), *line, *next;
	int in = 0, seen = 0;

	memset(c, 0, sizeof(*c));
	line = copy;
	if (str_starts_with(line, "\xef\xbb\xbf"))
		line += 3;
	for (; line; line = next) {
		char *eq, *l;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		l = trim(line);
		if (*l == '#' || *l == ';' || !*l)
			continue;
		if (*l == '[') {
			char *close = strchr(l, ']');

			if (close)
				*close = '\0';
			in = !strcmp(trim(l + 1), profile);
			seen |= in;
			continue;
		}
		if (!in || !(eq = strchr(l, '=')))
			continue;
		*eq = '\0';
		l = trim(l);
		take_key(l, "aws_access_key_id", trim(eq + 1), &c->access_key_id);
		take_key(l, "aws_secret_access_key", trim(eq + 1), &c->secret_access_key);
		take_key(l, "aws_session_token", trim(eq + 1), &c->session_token);
	}
	wipe_free(copy);
	if (!seen) {
		aws_creds_release(c);
		return ebs_fail(err, EBS_ERR_AUTH,
				"no AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, and '%s' has no profile '%s'",
				path, profile);
	}
	if (!c->access_key_id || !*c->access_key_id ||
	    !c->secret_access_key || !*c->secret_access_key) {
		aws_creds_release(c);
		return ebs_fail(err, EBS_ERR_AUTH,
				"no AWS credentials: profile '%s' in '%s' lacks aws_access_key_id or aws_secret_access_key",
				profile, path);
	}
	xsnprintf(c->source, sizeof(c->source), "profile '%s' in '%s'", profile, path);
	return EBS_OK;
}

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/*
 * Keep secrets out of core files: no core dumps (RLIMIT_CORE soft limit 0)
 * and, on Linux, a non-dumpable process (which also keeps other processes
 * of the same user from ptrace-reading memory).  For the rest of the
 * process's life; best effort, failures are ignored.
 */
void aws_creds_protect_process(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_CORE, &rl)) {
		rl.rlim_cur = 0;
		(void)setrlimit(RLIMIT_CORE, &rl);
	}
#ifdef __linux__
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

int aws_creds_load(struct aws_creds *c, char *err)
{
	const char *akid = env("AWS_ACCESS_KEY_ID");
	const char *secret = env("AWS_SECRET_ACCESS_KEY");
	const char *profile = env("AWS_PROFILE");
	const char *file = env("AWS_SHARED_CREDENTIALS_FILE");
	const char *home = env("HOME");
	char *path = NULL, *buf = NULL;
	size_t len;
	int rc;

	memset(c, 0, sizeof(*c));
	aws_creds_protect_process();
	if (akid && secret) {
		c->access_key_id = xstrdup(akid);
		c->secret_access_key = xstrdup(secret);
		if (env("AWS_SESSION_TOKEN"))
			c->session_token = xstrdup(env("AWS_SESSION_TOKEN"));
		xsnprintf(c->source, sizeof(c->source), "environment");
		return EBS_OK;
	}
	if (!profile)
		profile = "default";
	if (file)
		path = xstrdup(file);
	else if (home)
		path = xstrfmt("%s/.aws/credentials", home);
	else
		return ebs_fail(err, EBS_ERR_AUTH,
				"no AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, and neither AWS_SHARED_CREDENTIALS_FILE nor HOME is");
	rc = read_file_capped(path, CREDS_FILE_CAP, &buf, &len, err);
	if (rc == EBS_ERR_IO)
		rc = ebs_fail(err, EBS_ERR_AUTH,
			      "no AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, and '%s' cannot be read (profile '%s')",
			      path, profile);
	if (!rc)
		rc = aws_creds_from_ini(buf, profile, path, c, err);
	if (buf)
		wipe_free(buf);
	free(path);
	return rc;
}
