/*
 * aws_creds.c - the AWS credential chain (see aws_creds.h for the order):
 * environment, shared config and credentials profiles (static keys,
 * source_profile role chains through STS, web identity, IAM Identity
 * Center, credential_process), container endpoints and IMDSv2.
 *
 * Parsing is aws_config_parse.c's; HTTP is http.c's.  This file reads
 * the files, runs credential_process (no shell), makes the requests and
 * decides.  It never prints: each source tried is reported through the
 * trace callback (for --explain-credentials) with no secret in it, and
 * errors say which source failed and what to do.
 */
#include "ebsize/aws_creds.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ebsize/aws_config.h"
#include "ebsize/err.h"
#include "ebsize/http.h"
#include "ebsize/util.h"

extern char **environ;

#define CREDS_FILE_CAP	   (1u << 20)
#define PROCESS_OUTPUT_CAP (64u << 10)
#define NOT_HERE	   1000 /* a source with nothing configured */

/* ------------------------------------------------------------ helpers */

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* Overwrite and free a buffer that held a secret. */
static void wipe_buf(char *s, size_t len)
{
	volatile char *p = s;

	if (!s)
		return;
	for (size_t i = 0; i < len; i++)
		p[i] = '\0';
	free(s);
}

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

/* "~/x" with $HOME expanded, as botocore expands its file paths (heap). */
static char *expand_home(const char *p)
{
	const char *home = env("HOME");

	if (home && (!strcmp(p, "~") || str_starts_with(p, "~/")))
		return xstrfmt("%s%s", home, p + 1);
	return xstrdup(p);
}

/* The state of one resolution. */
struct chain {
	const struct aws_creds_opts *o;
	struct aws_ini config, creds;
	char *config_path, *creds_path;
	struct http *http;
	const char *visited[AWS_CREDS_MAX_CHAIN + 2];
	size_t nvisited;
	struct sbuf tried; /* "; "-joined notes for the final error */
};

/* Report one source tried (trace) and remember it for the final error. */
static void note(struct chain *ch, const char *source, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(struct chain *ch, const char *source, const char *fmt, ...)
{
	va_list ap;
	char *r;

	va_start(ap, fmt);
	r = xvstrfmt(fmt, ap);
	va_end(ap);
	if (ch->o->trace)
		ch->o->trace(ch->o->trace_arg, source, r);
	if (strcmp(r, "used"))
		sbuf_addf(&ch->tried, "%s%s: %s", ch->tried.len ? "; " : "",
			  source, r);
	free(r);
}

/* Milliseconds a request may take: own, cut to the deadline (>= 1). */
static long limit_ms(const struct chain *ch, long own)
{
	long long left;

	if (!ch->o->deadline_ms)
		return own;
	left = ch->o->deadline_ms - http_now_ms();
	if (left < 1)
		left = 1;
	return left < own ? (long)left : own;
}

static int deadline_gone(const struct chain *ch)
{
	return ch->o->deadline_ms && http_now_ms() >= ch->o->deadline_ms;
}

static int need_http(struct chain *ch, char *err)
{
	return ch->http ? EBS_OK : http_new(&ch->http, "pricing fetch", err);
}

/*
 * One small request with `attempts` tries on transport failures and 5xx.
 * Returns an http_result; resp holds the last answer.
 */
static int small_request(struct chain *ch, struct http_request *req,
			 struct http_response *resp, long timeout_ms,
			 int attempts)
{
	int r = HTTP_FAILED;

	for (int i = 0; i < attempts; i++) {
		if (i && deadline_gone(ch))
			break;
		req->connect_timeout_ms = limit_ms(ch, timeout_ms);
		req->timeout_ms = limit_ms(ch, timeout_ms);
		r = http_perform(ch->http, req, resp);
		if (r == HTTP_DONE && resp->status < 500)
			return r;
		if (r == HTTP_FAILED || r == HTTP_TOO_BIG)
			return r;
	}
	return r;
}

/* Credentials that already expired are refused, naming the source. */
static int check_fresh(const struct aws_creds *c, const char *what, char *err)
{
	char when[32];
	time_t t;
	struct tm tm;

	if (!c->expiration || c->expiration > (long long)time(NULL))
		return EBS_OK;
	t = (time_t)c->expiration;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return ebs_fail(err, EBS_ERR_AUTH, "%s: the credentials expired at %s",
			what, when);
}

/* Read a small file; NOT_HERE when it does not exist. */
static int read_small(const char *path, size_t cap, char **buf, size_t *len,
		      char *err)
{
	struct stat sb;

	*buf = NULL;
	*len = 0;
	if (stat(path, &sb) && errno == ENOENT)
		return NOT_HERE;
	return read_file_capped(path, cap, buf, len, err);
}

/* ------------------------------------------------------------ files */

/* Load and parse the config and credentials files (absent: empty). */
static int load_files(struct chain *ch, char *err)
{
	const char *cf = env("AWS_CONFIG_FILE"),
		   *sf = env("AWS_SHARED_CREDENTIALS_FILE");
	const char *home = env("HOME");
	char *buf;
	size_t len;
	int rc;

	if (cf)
		ch->config_path = expand_home(cf);
	else if (home)
		ch->config_path = xstrfmt("%s/.aws/config", home);
	if (sf)
		ch->creds_path = expand_home(sf);
	else if (home)
		ch->creds_path = xstrfmt("%s/.aws/credentials", home);
	if (ch->config_path) {
		rc = read_small(ch->config_path, CREDS_FILE_CAP, &buf, &len,
				err);
		if (rc && rc != NOT_HERE)
			return rc;
		if (!rc)
			aws_ini_parse(buf, len, &ch->config);
		wipe_buf(buf, len);
	}
	if (ch->creds_path) {
		rc =
		    read_small(ch->creds_path, CREDS_FILE_CAP, &buf, &len, err);
		if (rc && rc != NOT_HERE)
			return rc;
		if (!rc)
			aws_ini_parse(buf, len, &ch->creds);
		wipe_buf(buf, len);
	}
	return EBS_OK;
}

/* The profile's section in the config file ([default] or [profile x]). */
static const struct aws_ini_section *config_sec(const struct chain *ch,
						const char *name)
{
	char sec[300];
	const struct aws_ini_section *s = NULL;

	if (!strcmp(name, "default"))
		s = aws_ini_section(&ch->config, "default");
	xsnprintf(sec, sizeof(sec), "profile %s", name);
	return s ? s : aws_ini_section(&ch->config, sec);
}

static const struct aws_ini_section *creds_sec(const struct chain *ch,
					       const char *name)
{
	return aws_ini_section(&ch->creds, name);
}

/* A profile setting: the credentials file wins over the config file
 * (botocore merges them that way). */
static const char *pget(const struct chain *ch, const char *name,
			const char *key)
{
	const char *v = aws_ini_get(creds_sec(ch, name), key);

	return v ? v : aws_ini_get(config_sec(ch, name), key);
}

static const char *path_or(const char *p)
{
	return p ? p : "(no HOME)";
}

/* ------------------------------------------------------------ sources */

/* Static keys of one section; NOT_HERE when it has none. */
static int from_keys(const struct aws_ini_section *sec, const char *name,
		     const char *path, struct aws_creds *c, char *err)
{
	const char *akid = aws_ini_get(sec, "aws_access_key_id");
	const char *secret = aws_ini_get(sec, "aws_secret_access_key");
	const char *token = aws_ini_get(sec, "aws_session_token");

	if (!akid && !secret)
		return NOT_HERE;
	if (!akid || !secret)
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "no AWS credentials: profile '%s' in '%s' lacks aws_access_key_id or aws_secret_access_key",
		    name, path);
	c->access_key_id = xstrdup(akid);
	c->secret_access_key = xstrdup(secret);
	c->session_token = token ? xstrdup(token) : NULL;
	xsnprintf(c->source, sizeof(c->source),
		  "static keys of profile '%s' in '%s'", name, path);
	return EBS_OK;
}

/* Wait for child pid until the deadline (ms clock); 0 with *status, or -1. */
static int wait_child(pid_t pid, long long until, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (http_now_ms() >= until)
			return -1;
		http_sleep_ms(10);
	}
}

/* Stop a child that took too long. */
static void kill_child(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	if (!wait_child(pid, http_now_ms() + 500, &st))
		return;
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

/*
 * Read the child's stdout (fd) into out until EOF, the cap or `until`.
 * 0 at EOF, 1 on timeout, 2 over the cap, -1 on a read error.
 */
static int read_child(int fd, long long until, struct sbuf *out)
{
	char buf[4096];

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		long long left = until - http_now_ms();
		ssize_t n;

		if (left <= 0)
			return 1;
		if (poll(&pfd, 1, left > 1000 ? 1000 : (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!pfd.revents)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		if (sbuf_add(out, buf, (size_t)n)) {
			memset(buf, 0, sizeof(buf));
			return 2;
		}
		memset(buf, 0, sizeof(buf));
	}
}

/*
 * Run credential_process: no shell (argv split as botocore does), stdin
 * and stderr inherited (so it may prompt and report), stdout read as
 * JSON and never shown.  Bounded by the process timeout and the deadline.
 */
static int from_process(struct chain *ch, const char *name, const char *cmd,
			struct aws_creds *c, char *err)
{
	long secs =
	    ch->o->process_timeout_s > 0 ? ch->o->process_timeout_s : 60;
	long lim = limit_ms(ch, secs * 1000);
	long long until = http_now_ms() + lim;
	struct sbuf out = SBUF_INIT(PROCESS_OUTPUT_CAP);
	posix_spawn_file_actions_t fa;
	char what[300], why[200], **argv = NULL;
	size_t argc;
	int fds[2], rc, st = 0, r;
	pid_t pid;

	xsnprintf(what, sizeof(what), "credential_process of profile '%s'",
		  name);
	if ((rc = aws_split_command(cmd, &argv, &argc, why)))
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: cannot split the command: %s", what, why);
	if (pipe(fds)) {
		aws_argv_free(argv);
		return ebs_fail(err, EBS_ERR_EXEC, "%s: cannot make a pipe: %s",
				what, strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		rc = ebs_fail(err, EBS_ERR_EXEC, "%s: cannot run '%s': %s",
			      what, argv[0], strerror(rc));
		aws_argv_free(argv);
		return rc;
	}
	r = read_child(fds[0], until, &out);
	close(fds[0]);
	if (r == 0 && wait_child(pid, until, &st))
		r = 1;
	if (r) {
		kill_child(pid);
		if (r == 1)
			rc = ebs_fail(
			    err, EBS_ERR_EXEC,
			    "%s: '%s' did not finish within %ld s; it was stopped",
			    what, argv[0], (lim + 999) / 1000);
		else
			rc = ebs_fail(err, EBS_ERR_EXEC, "%s: '%s' %s", what,
				      argv[0],
				      r == 2 ? "wrote more than 64 KiB"
					     : "could not be read");
	} else if (WIFSIGNALED(st)) {
		rc = ebs_fail(err, EBS_ERR_EXEC,
			      "%s: '%s' was killed by signal %d", what, argv[0],
			      WTERMSIG(st));
	} else if (WEXITSTATUS(st)) {
		rc = ebs_fail(err, EBS_ERR_EXEC,
			      "%s: '%s' exited with status %d", what, argv[0],
			      WEXITSTATUS(st));
	} else if (!(rc = aws_parse_creds_json(AWS_DOC_PROCESS,
					       out.buf ? out.buf : "", out.len,
					       what, c, err)) &&
		   !(rc = check_fresh(c, what, err))) {
		xsnprintf(c->source, sizeof(c->source), "%s ('%s')", what,
			  argv[0]);
	}
	wipe_buf(out.buf, out.len);
	aws_argv_free(argv);
	return rc;
}

/* A region code fit for a host name: [a-z0-9-] only. */
static int region_ok(const char *r)
{
	if (!r || !*r || strlen(r) > 31)
		return 0;
	for (; *r; r++)
		if (!((*r >= 'a' && *r <= 'z') || (*r >= '0' && *r <= '9') ||
		      *r == '-'))
			return 0;
	return 1;
}

/* What the user should run when the SSO token is missing or stale. */
static void sso_hint(const char *name, char *out, size_t n)
{
	xsnprintf(out, n, "run `aws sso login --profile %s`", name);
}

/* The cached SSO token of a profile (heap, wipe it), or an error. */
static int sso_token(const char *name, const char *key, char **token, char *err)
{
	const char *home = env("HOME");
	char hex[41], hint[300], *path, *buf;
	long long expires;
	size_t len;
	int rc;

	sso_hint(name, hint, sizeof(hint));
	aws_sha1_hex(key, hex);
	path = xstrfmt("%s/.aws/sso/cache/%s.json", home ? home : "", hex);
	rc = read_small(path, CREDS_FILE_CAP, &buf, &len, err);
	if (rc == NOT_HERE) {
		rc = ebs_fail(
		    err, EBS_ERR_AUTH,
		    "no cached SSO token for profile '%s' (no '%s'): %s", name,
		    path, hint);
	} else if (!rc &&
		   !(rc = aws_parse_sso_cache(buf, len, path, token, &expires,
					      err)) &&
		   expires <= (long long)time(NULL)) {
		wipe_buf(*token, strlen(*token));
		*token = NULL;
		rc = ebs_fail(
		    err, EBS_ERR_AUTH,
		    "the cached SSO token of profile '%s' has expired: %s",
		    name, hint);
	}
	wipe_buf(buf, len);
	free(path);
	return rc;
}

/*
 * IAM Identity Center: the profile's sso_session (or legacy sso_start_url)
 * names the token `aws sso login` cached; GetRoleCredentials on the
 * portal trades it for role credentials.
 */
static int from_sso(struct chain *ch, const char *name, struct aws_creds *c,
		    char *err)
{
	const char *session = pget(ch, name, "sso_session");
	const char *account = pget(ch, name, "sso_account_id");
	const char *role = pget(ch, name, "sso_role_name");
	const char *region, *start, *ep = env("AWS_ENDPOINT_URL_SSO");
	const struct aws_ini_section *ss = NULL;
	struct http_request req = { 0 };
	struct http_response resp;
	char what[300], hint[300], sec[300],
	    *token = NULL, *url = NULL, *hdr = NULL, *ea = NULL, *er = NULL,
	    *base = NULL;
	const char *hdrs[1];
	int rc, r;

	xsnprintf(what, sizeof(what), "SSO for profile '%s'", name);
	sso_hint(name, hint, sizeof(hint));
	if (session) {
		xsnprintf(sec, sizeof(sec), "sso-session %s", session);
		if (!(ss = aws_ini_section(&ch->config, sec)))
			return ebs_fail(
			    err, EBS_ERR_AUTH,
			    "%s: sso_session '%s' has no [sso-session %s] section in '%s'",
			    what, session, session, path_or(ch->config_path));
	}
	start = ss ? aws_ini_get(ss, "sso_start_url")
		   : pget(ch, name, "sso_start_url");
	region =
	    ss ? aws_ini_get(ss, "sso_region") : pget(ch, name, "sso_region");
	if (!start || !region || !account || !role)
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "%s: needs sso_account_id, sso_role_name, sso_region and sso_start_url (in the profile or its sso_session)",
		    what);
	if (!region_ok(region))
		return ebs_fail(err, EBS_ERR_AUTH,
				"%s: sso_region '%s' is not a region code",
				what, region);
	if ((rc = sso_token(name, session ? session : start, &token, err)))
		return rc;
	if ((rc = need_http(ch, err)))
		goto out;
	base = ep ? xstrdup(ep)
		  : xstrfmt("https://portal.sso.%s.amazonaws.com%s", region,
			    str_starts_with(region, "cn-") ? ".cn" : "");
	if ((rc = http_url_check(base, "SSO portal endpoint", 0, NULL, 0, err)))
		goto out;
	while (str_ends_with(base, "/"))
		base[strlen(base) - 1] = '\0';
	ea = http_urlencode(account);
	er = http_urlencode(role);
	url = xstrfmt("%s/federation/credentials?role_name=%s&account_id=%s",
		      base, er, ea);
	hdr = xstrfmt("x-amz-sso_bearer_token: %s", token);
	hdrs[0] = hdr;
	req.url = url;
	req.headers = hdrs;
	req.nheaders = 1;
	req.max_body = 1u << 20;
	http_response_init(&resp);
	r = small_request(ch, &req, &resp, 10000, 3);
	if (r != HTTP_DONE)
		rc = ebs_fail(err, EBS_ERR_NETWORK,
			      "%s: cannot reach the SSO portal '%s': %s", what,
			      base, resp.reason);
	else if (resp.status == 401 || resp.status == 403)
		rc = ebs_fail(
		    err, EBS_ERR_AUTH,
		    "%s: the SSO portal refused the cached token (HTTP %ld): %s",
		    what, resp.status, hint);
	else if (resp.status != 200)
		rc = ebs_fail(err, EBS_ERR_NETWORK,
			      "%s: the SSO portal '%s' answered HTTP %ld", what,
			      base, resp.status);
	else if (!(rc = aws_parse_creds_json(AWS_DOC_SSO_ROLE, resp.body.buf,
					     resp.body.len, what, c, err)) &&
		 !(rc = check_fresh(c, what, err))) {
		xsnprintf(c->source, sizeof(c->source),
			  "SSO role '%s' in account %s for profile '%s'", role,
			  account, name);
	}
	wipe_buf(resp.body.buf, resp.body.len);
	resp.body.buf = NULL;
	http_response_release(&resp);
out:
	if (token)
		wipe_buf(token, strlen(token));
	if (hdr)
		wipe_buf(hdr, strlen(hdr));
	free(url);
	free(ea);
	free(er);
	free(base);
	return rc;
}

/* An Authorization token for the container endpoint (heap), or NULL. */
static int container_token(char **token, char *err)
{
	const char *file = env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
	const char *t = env("AWS_CONTAINER_AUTHORIZATION_TOKEN");
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*token = NULL;
	if (file) {
		if ((rc = read_file_capped(file, 16u << 10, &buf, &len, err)))
			return rc;
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		*token = buf;
	} else if (t) {
		*token = xstrdup(t);
	}
	if (*token && strpbrk(*token, "\r\n")) {
		wipe_buf(*token, strlen(*token));
		*token = NULL;
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "the container authorization token holds a line break");
	}
	return EBS_OK;
}

/*
 * Container credentials (ECS task role, EKS Pod Identity):
 * AWS_CONTAINER_CREDENTIALS_RELATIVE_URI on 169.254.170.2, or _FULL_URI;
 * NOT_HERE when neither is set.
 */
static int from_container(struct chain *ch, struct aws_creds *c, char *err)
{
	const char *rel = env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
	const char *full = env("AWS_CONTAINER_CREDENTIALS_FULL_URI");
	const char *base = env("EBSIZE_CONTAINER_CREDENTIALS_BASE");
	struct http_request req = { 0 };
	struct http_response resp;
	char *url, *token = NULL, *hdr = NULL;
	const char *hdrs[1];
	int rc, r;

	if (!rel && !full) {
		note(
		    ch, "container",
		    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI not set");
		return NOT_HERE;
	}
	if (rel && rel[0] != '/')
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "container credentials: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI must start with '/'");
	url = rel ? xstrfmt("%s%s", base ? base : "http://169.254.170.2", rel)
		  : xstrdup(full);
	if ((rc = need_http(ch, err)) ||
	    (rc = http_url_check(url, "container credentials URI",
				 HTTP_URL_LINK_LOCAL, NULL, 0, err)) ||
	    (rc = container_token(&token, err))) {
		free(url);
		return rc;
	}
	if (token) {
		hdr = xstrfmt("Authorization: %s", token);
		hdrs[0] = hdr;
		req.headers = hdrs;
		req.nheaders = 1;
	}
	req.url = url;
	req.max_body = 1u << 20;
	http_response_init(&resp);
	r = small_request(ch, &req, &resp, 2000, 2);
	if (r != HTTP_DONE)
		rc = ebs_fail(err, EBS_ERR_NETWORK,
			      "container credentials: cannot reach '%s': %s",
			      url, resp.reason);
	else if (resp.status != 200)
		rc = ebs_fail(err, EBS_ERR_AUTH,
			      "container credentials: '%s' answered HTTP %ld",
			      url, resp.status);
	else if (!(rc = aws_parse_creds_json(
		       AWS_DOC_CONTAINER, resp.body.buf, resp.body.len,
		       "container credentials", c, err)) &&
		 !(rc = check_fresh(c, "container credentials", err))) {
		xsnprintf(c->source, sizeof(c->source),
			  "container credentials from '%s'", url);
		note(ch, "container", "used");
	}
	wipe_buf(resp.body.buf, resp.body.len);
	resp.body.buf = NULL;
	http_response_release(&resp);
	if (token)
		wipe_buf(token, strlen(token));
	if (hdr)
		wipe_buf(hdr, strlen(hdr));
	free(url);
	return rc;
}

/* A role name as IMDS lists it (IAM's character set). */
static int role_name_ok(const char *s, size_t n)
{
	if (!n || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr(
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+=,.@_-",
			s[i]) ||
		    !s[i])
			return 0;
	return 1;
}

/* One IMDS request (1 s, one retry) with the session token header hdr
 * (NULL for the token PUT itself).  Returns the http_result. */
static int imds_get(struct chain *ch, const char *method, const char *url,
		    const char *hdr, struct http_response *resp)
{
	struct http_request req = { 0 };
	const char *hdrs[1] = { hdr };

	req.method = method;
	req.url = url;
	req.headers = hdrs;
	req.nheaders = 1;
	req.max_body = 1u << 20;
	return small_request(ch, &req, resp, 1000, 2);
}

/* Forget a response that may hold a secret. */
static void resp_wipe(struct http_response *resp)
{
	if (resp->body.buf)
		wipe_buf(resp->body.buf, resp->body.len);
	resp->body.buf = NULL;
	http_response_release(resp);
	http_response_init(resp);
}

/*
 * The IMDSv2 session token as a header line (heap, wipe it) into *hdr;
 * NOT_HERE (noted) when IMDS does not answer or gives no token.
 */
static int imds_token(struct chain *ch, const char *base, char **hdr)
{
	struct http_response resp;
	char *url = xstrfmt("%s/latest/api/token", base);
	int r, rc = NOT_HERE;

	http_response_init(&resp);
	r = imds_get(ch, "PUT", url,
		     "X-aws-ec2-metadata-token-ttl-seconds: 21600", &resp);
	if (r != HTTP_DONE)
		note(ch, "instance metadata", "not reachable at '%s' (%s)",
		     base, resp.reason);
	else if (resp.status != 200 || !resp.body.len ||
		 strpbrk(resp.body.buf, "\r\n"))
		note(ch, "instance metadata",
		     "no IMDSv2 token from '%s' (HTTP %ld)", base, resp.status);
	else {
		*hdr = xstrfmt("X-aws-ec2-metadata-token: %s", resp.body.buf);
		rc = EBS_OK;
	}
	resp_wipe(&resp);
	http_response_release(&resp);
	free(url);
	return rc;
}

/* The instance's role name into role (80 bytes); NOT_HERE without one. */
static int imds_role(struct chain *ch, const char *base, const char *hdr,
		     char *role, char *err)
{
	struct http_response resp;
	char *url =
	    xstrfmt("%s/latest/meta-data/iam/security-credentials/", base);
	size_t n;
	int r, rc = NOT_HERE;

	http_response_init(&resp);
	r = imds_get(ch, NULL, url, hdr, &resp);
	n = resp.body.buf ? strcspn(resp.body.buf, "\n") : 0;
	if (r == HTTP_DONE && resp.status == 404)
		note(ch, "instance metadata",
		     "no IAM role attached to this instance");
	else if (r != HTTP_DONE || resp.status != 200)
		note(ch, "instance metadata", "no role name (%s)",
		     r == HTTP_DONE ? "an HTTP error" : resp.reason);
	else if (!role_name_ok(resp.body.buf, n))
		rc = ebs_fail(
		    err, EBS_ERR_PARSE,
		    "instance metadata: '%s' did not answer a role name", base);
	else {
		xsnprintf(role, 80, "%.*s", (int)n, resp.body.buf);
		rc = EBS_OK;
	}
	http_response_release(&resp);
	free(url);
	return rc;
}

/*
 * EC2 instance metadata, IMDSv2: PUT a session token, then GET the
 * role's credentials with it.  1 s per request, one retry.  NOT_HERE
 * when disabled, unreachable or without a role (no IMDSv1 fallback).
 */
static int from_imds(struct chain *ch, struct aws_creds *c, char *err)
{
	const char *dis = env("AWS_EC2_METADATA_DISABLED");
	const char *ep = env("AWS_EC2_METADATA_SERVICE_ENDPOINT");
	const char *mode = env("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");
	struct http_response resp;
	char *base, *url = NULL, *hdr = NULL, role[80];
	int rc, r;

	if (dis && !strcasecmp(dis, "true")) {
		note(ch, "instance metadata",
		     "disabled by AWS_EC2_METADATA_DISABLED");
		return NOT_HERE;
	}
	base = xstrdup(ep ? ep
		       : mode && !strcasecmp(mode, "IPv6")
			   ? "http://[fd00:ec2::254]"
			   : "http://169.254.169.254");
	while (*base && str_ends_with(base, "/"))
		base[strlen(base) - 1] = '\0';
	http_response_init(&resp);
	if ((rc = need_http(ch, err)) ||
	    (rc = http_url_check(base, "instance metadata endpoint",
				 HTTP_URL_LINK_LOCAL, NULL, 0, err)) ||
	    (rc = imds_token(ch, base, &hdr)) ||
	    (rc = imds_role(ch, base, hdr, role, err)))
		goto out;
	url = xstrfmt("%s/latest/meta-data/iam/security-credentials/%s", base,
		      role);
	r = imds_get(ch, NULL, url, hdr, &resp);
	if (r != HTTP_DONE || resp.status != 200)
		rc = ebs_fail(
		    err, EBS_ERR_NETWORK,
		    "instance metadata: no credentials for role '%s' (%s)",
		    role, r == HTTP_DONE ? "an HTTP error" : resp.reason);
	else if (!(rc = aws_parse_creds_json(AWS_DOC_CONTAINER, resp.body.buf,
					     resp.body.len, "instance metadata",
					     c, err)) &&
		 !(rc = check_fresh(c, "instance metadata", err))) {
		xsnprintf(c->source, sizeof(c->source),
			  "instance metadata (IMDSv2) role '%s' at '%s'", role,
			  base);
		note(ch, "instance metadata", "used");
	}
out:
	resp_wipe(&resp);
	http_response_release(&resp);
	if (hdr)
		wipe_buf(hdr, strlen(hdr));
	free(url);
	free(base);
	return rc;
}

/* ------------------------------------------------------------ STS */

/* The STS endpoint and signing region for a profile. */
static char *sts_endpoint(const struct chain *ch, const char *name,
			  char region[32])
{
	const char *ep = env("AWS_ENDPOINT_URL_STS");
	const char *r = pget(ch, name, "region");

	if (!r)
		r = env("AWS_REGION");
	if (!r)
		r = env("AWS_DEFAULT_REGION");
	xsnprintf(region, 32, "%s", region_ok(r) ? r : "us-east-1");
	if (ep)
		return xstrdup(ep);
	if (!region_ok(r))
		return xstrdup("https://sts.amazonaws.com");
	return xstrfmt("https://sts.%s.amazonaws.com%s", r,
		       str_starts_with(r, "cn-") ? ".cn" : "");
}

/*
 * POST an STS Query request (form body) and read the credentials from
 * its XML answer.  Signed with signer when not NULL (AssumeRole);
 * unsigned for AssumeRoleWithWebIdentity.
 */
static int sts_call(struct chain *ch, const char *name, const char *body,
		    const struct aws_creds *signer, const char *what,
		    struct aws_creds *c, char *err)
{
	struct http_request req = { 0 };
	struct http_response resp;
	const char *hdrs[2];
	char region[32], sigv4[64], *base, *url, *thdr = NULL;
	int rc, r;

	base = sts_endpoint(ch, name, region);
	url = xstrfmt("%s%s", base, str_ends_with(base, "/") ? "" : "/");
	if ((rc = need_http(ch, err)) ||
	    (rc = http_url_check(url, "STS endpoint", 0, NULL, 0, err)))
		goto out_free;
	hdrs[0] =
	    "Content-Type: application/x-www-form-urlencoded; charset=utf-8";
	req.nheaders = 1;
	if (signer) {
		xsnprintf(sigv4, sizeof(sigv4), "aws:amz:%s:sts", region);
		req.sigv4 = sigv4;
		req.user = signer->access_key_id;
		req.secret = signer->secret_access_key;
		if (signer->session_token) {
			thdr = xstrfmt("X-Amz-Security-Token: %s",
				       signer->session_token);
			hdrs[req.nheaders++] = thdr;
		}
	}
	req.method = "POST";
	req.url = url;
	req.headers = hdrs;
	req.body = body;
	req.body_len = strlen(body);
	req.max_body = 1u << 20;
	http_response_init(&resp);
	r = small_request(ch, &req, &resp, 10000, 3);
	if (r != HTTP_DONE)
		rc = ebs_fail(err, EBS_ERR_NETWORK,
			      "%s: cannot reach STS at '%s': %s", what, base,
			      resp.reason);
	else
		rc = aws_parse_sts_xml(resp.body.buf, resp.body.len, what, c,
				       err);
	if (!rc)
		rc = check_fresh(c, what, err);
	wipe_buf(resp.body.buf, resp.body.len);
	resp.body.buf = NULL;
	http_response_release(&resp);
out_free:
	if (thdr)
		wipe_buf(thdr, strlen(thdr));
	free(base);
	free(url);
	return rc;
}

/* The form body of an STS call (heap; holds a secret for web identity). */
static char *sts_body(const struct chain *ch, const char *name,
		      const char *action, const char *role_arn,
		      const char *web_token)
{
	const char *sess = pget(ch, name, "role_session_name");
	const char *ext = pget(ch, name, "external_id");
	const char *dur = pget(ch, name, "duration_seconds");
	struct sbuf sb = SBUF_INIT(1u << 20);
	char *e, defsess[48];
	long d;

	xsnprintf(defsess, sizeof(defsess), "ebsize-%lld",
		  (long long)time(NULL));
	sbuf_addf(&sb, "Action=%s&Version=2011-06-15&RoleArn=", action);
	sbuf_addstr(&sb, e = http_urlencode(role_arn));
	free(e);
	sbuf_addstr(&sb, "&RoleSessionName=");
	sbuf_addstr(&sb, e = http_urlencode(sess ? sess : defsess));
	free(e);
	if (dur && !parse_long_range(dur, 900, 43200, &d))
		sbuf_addf(&sb, "&DurationSeconds=%ld", d);
	if (ext && !web_token) {
		sbuf_addstr(&sb, "&ExternalId=");
		sbuf_addstr(&sb, e = http_urlencode(ext));
		free(e);
	}
	if (web_token) {
		sbuf_addstr(&sb, "&WebIdentityToken=");
		e = http_urlencode(web_token);
		sbuf_addstr(&sb, e);
		wipe_buf(e, strlen(e));
	}
	return sbuf_detach(&sb, NULL);
}

/* AssumeRoleWithWebIdentity with the token in file (a profile's or env's). */
static int web_identity(struct chain *ch, const char *name,
			const char *role_arn, const char *file,
			struct aws_creds *c, char *err)
{
	char *path = expand_home(file), *tok = NULL, *body, what[400];
	size_t len = 0;
	int rc;

	xsnprintf(what, sizeof(what), "web identity role '%s'", role_arn);
	rc = read_file_capped(path, 64u << 10, &tok, &len, err);
	if (!rc) {
		while (len && (tok[len - 1] == '\n' || tok[len - 1] == '\r'))
			tok[--len] = '\0';
		body = sts_body(ch, name, "AssumeRoleWithWebIdentity", role_arn,
				tok);
		rc = sts_call(ch, name, body, NULL, what, c, err);
		wipe_buf(body, strlen(body));
		if (!rc) {
			xsnprintf(
			    c->source, sizeof(c->source),
			    "role '%s' assumed with the web identity token in '%s'",
			    role_arn, path);
		}
	}
	wipe_buf(tok, len);
	free(path);
	return rc;
}

static int profile_rest(struct chain *ch, const char *name, struct aws_creds *c,
			char *err);
static int profile_role(struct chain *ch, const char *name, int depth,
			struct aws_creds *c, char *err);

/* The credentials a role is assumed with: source_profile or
 * credential_source. */
static int role_source(struct chain *ch, const char *name, int depth,
		       struct aws_creds *src, char *err)
{
	const char *sp = pget(ch, name, "source_profile");
	const char *cs = pget(ch, name, "credential_source");
	int rc;

	if (sp && cs)
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "profile '%s' has both source_profile and credential_source",
		    name);
	if (sp) {
		if (!strcmp(sp, name)) { /* its own static keys */
			rc = from_keys(creds_sec(ch, name), name,
				       path_or(ch->creds_path), src, err);
			if (rc == NOT_HERE)
				rc = from_keys(config_sec(ch, name), name,
					       path_or(ch->config_path), src,
					       err);
			return rc == NOT_HERE
				   ? ebs_fail(
					 err, EBS_ERR_AUTH,
					 "profile '%s' is its own source_profile but has no static keys",
					 name)
				   : rc;
		}
		for (size_t i = 0; i < ch->nvisited; i++)
			if (!strcmp(ch->visited[i], sp))
				return ebs_fail(
				    err, EBS_ERR_AUTH,
				    "source_profile loop: profile '%s' leads back to '%s'",
				    name, sp);
		if (depth + 1 >= AWS_CREDS_MAX_CHAIN)
			return ebs_fail(
			    err, EBS_ERR_AUTH,
			    "source_profile chain from profile '%s' is longer than %d",
			    ch->visited[0], AWS_CREDS_MAX_CHAIN);
		if (!config_sec(ch, sp) && !creds_sec(ch, sp))
			return ebs_fail(
			    err, EBS_ERR_AUTH,
			    "profile '%s' names source_profile '%s', which is in neither '%s' nor '%s'",
			    name, sp, path_or(ch->config_path),
			    path_or(ch->creds_path));
		rc = profile_role(ch, sp, depth + 1, src, err);
		if (rc == NOT_HERE)
			rc = profile_rest(ch, sp, src, err);
		return rc == NOT_HERE
			   ? ebs_fail(
				 err, EBS_ERR_AUTH,
				 "source_profile '%s' of profile '%s' has no credentials",
				 sp, name)
			   : rc;
	}
	if (!cs)
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "profile '%s' has role_arn but neither source_profile nor credential_source",
		    name);
	if (!strcmp(cs, "Environment")) {
		if (!env("AWS_ACCESS_KEY_ID") || !env("AWS_SECRET_ACCESS_KEY"))
			return ebs_fail(
			    err, EBS_ERR_AUTH,
			    "profile '%s' has credential_source Environment, but AWS_ACCESS_KEY_ID or AWS_SECRET_ACCESS_KEY is not set",
			    name);
		src->access_key_id = xstrdup(env("AWS_ACCESS_KEY_ID"));
		src->secret_access_key = xstrdup(env("AWS_SECRET_ACCESS_KEY"));
		if (env("AWS_SESSION_TOKEN"))
			src->session_token = xstrdup(env("AWS_SESSION_TOKEN"));
		xsnprintf(src->source, sizeof(src->source), "environment");
		return EBS_OK;
	}
	if (!strcmp(cs, "EcsContainer") || !strcmp(cs, "Ec2InstanceMetadata")) {
		rc = !strcmp(cs, "EcsContainer") ? from_container(ch, src, err)
						 : from_imds(ch, src, err);
		return rc == NOT_HERE
			   ? ebs_fail(
				 err, EBS_ERR_AUTH,
				 "profile '%s' has credential_source %s, which gave no credentials",
				 name, cs)
			   : rc;
	}
	return ebs_fail(
	    err, EBS_ERR_AUTH,
	    "profile '%s': credential_source '%s' is not Environment, Ec2InstanceMetadata or EcsContainer",
	    name, cs);
}

/*
 * A profile with role_arn: AssumeRole with its source's credentials, or
 * AssumeRoleWithWebIdentity with its web_identity_token_file.  NOT_HERE
 * without role_arn.
 */
static int profile_role(struct chain *ch, const char *name, int depth,
			struct aws_creds *c, char *err)
{
	const char *role = pget(ch, name, "role_arn");
	const char *wit = pget(ch, name, "web_identity_token_file");
	struct aws_creds src = { 0 };
	char what[400], *body;
	int rc;

	if (!role)
		return NOT_HERE;
	if (wit)
		return web_identity(ch, name, role, wit, c, err);
	if (pget(ch, name, "mfa_serial"))
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "profile '%s' needs an MFA code (mfa_serial), which ebsize cannot ask for; get temporary credentials first (for example with 'aws sts get-session-token') and use them through the environment",
		    name);
	ch->visited[ch->nvisited++] = name;
	rc = role_source(ch, name, depth, &src, err);
	if (!rc) {
		xsnprintf(what, sizeof(what), "role '%s' of profile '%s'", role,
			  name);
		body = sts_body(ch, name, "AssumeRole", role, NULL);
		rc = sts_call(ch, name, body, &src, what, c, err);
		free(body);
		if (!rc)
			xsnprintf(c->source, sizeof(c->source),
				  "role '%s' of profile '%s', assumed with %s",
				  role, name, src.source);
	}
	ch->nvisited--;
	aws_creds_release(&src);
	return rc;
}

/*
 * The rest of a profile, in botocore's order: SSO, static keys in the
 * credentials file, credential_process, static keys in the config file.
 */
static int profile_rest(struct chain *ch, const char *name, struct aws_creds *c,
			char *err)
{
	const char *proc = pget(ch, name, "credential_process");
	int rc;

	if (pget(ch, name, "sso_session") || pget(ch, name, "sso_start_url") ||
	    pget(ch, name, "sso_account_id"))
		return from_sso(ch, name, c, err);
	rc = from_keys(creds_sec(ch, name), name, path_or(ch->creds_path), c,
		       err);
	if (rc != NOT_HERE)
		return rc;
	if (proc)
		return from_process(ch, name, proc, c, err);
	return from_keys(config_sec(ch, name), name, path_or(ch->config_path),
			 c, err);
}

/* Web identity from the environment (EKS IRSA): NOT_HERE when unset. */
static int env_web_identity(struct chain *ch, const char *name,
			    struct aws_creds *c, char *err)
{
	const char *file = env("AWS_WEB_IDENTITY_TOKEN_FILE");
	const char *role = env("AWS_ROLE_ARN");

	if (!file || !role)
		return NOT_HERE;
	return web_identity(ch, name, role, file, c, err);
}

/* ------------------------------------------------------------ the chain */

static int from_env(struct chain *ch, struct aws_creds *c, char *err)
{
	const char *akid = env("AWS_ACCESS_KEY_ID");
	const char *secret = env("AWS_SECRET_ACCESS_KEY");

	if (ch->o->profile) {
		note(ch, "environment", "skipped: --profile names a profile");
		return NOT_HERE;
	}
	if (!akid && !secret) {
		note(ch, "environment",
		     "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set");
		return NOT_HERE;
	}
	if (!akid || !secret)
		return ebs_fail(
		    err, EBS_ERR_AUTH,
		    "no AWS credentials: %s is set but %s is not",
		    akid ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
		    akid ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
	c->access_key_id = xstrdup(akid);
	c->secret_access_key = xstrdup(secret);
	if (env("AWS_SESSION_TOKEN"))
		c->session_token = xstrdup(env("AWS_SESSION_TOKEN"));
	xsnprintf(c->source, sizeof(c->source), "environment");
	note(ch, "environment", "used");
	return EBS_OK;
}

/* The selected profile, through all its sources. */
static int from_profile(struct chain *ch, struct aws_creds *c, char *err)
{
	const char *name = ch->o->profile ? ch->o->profile : env("AWS_PROFILE");
	const char *why = ch->o->profile ? "--profile"
			  : name	 ? "AWS_PROFILE"
					 : NULL;
	int rc;

	if (!name)
		name = "default";
	if (!config_sec(ch, name) && !creds_sec(ch, name)) {
		if (why)
			return ebs_fail(
			    err, EBS_ERR_AUTH,
			    "no AWS credentials: profile '%s' (from %s) is in neither '%s' nor '%s'",
			    name, why, path_or(ch->config_path),
			    path_or(ch->creds_path));
		note(ch, "profile 'default'", "not in '%s' or '%s'",
		     path_or(ch->config_path), path_or(ch->creds_path));
		return env_web_identity(ch, name, c, err);
	}
	rc = profile_role(ch, name, 0, c, err);
	if (rc == NOT_HERE)
		rc = env_web_identity(ch, name, c, err);
	if (rc == NOT_HERE)
		rc = profile_rest(ch, name, c, err);
	if (rc == NOT_HERE) {
		char src[300];

		xsnprintf(src, sizeof(src), "profile '%s'", name);
		note(ch, src, "no credential settings");
	} else if (!rc) {
		char src[300];

		xsnprintf(src, sizeof(src), "profile '%s'", name);
		note(ch, src, "used: %s", c->source);
	}
	return rc;
}

int aws_creds_resolve(struct aws_creds *c, const struct aws_creds_opts *o,
		      char *err)
{
	struct chain ch;
	int rc;

	memset(c, 0, sizeof(*c));
	memset(&ch, 0, sizeof(ch));
	ch.o = o;
	sbuf_init(&ch.tried, 1u << 16);
	aws_creds_protect_process();
	rc = from_env(&ch, c, err);
	if (rc == NOT_HERE && !(rc = load_files(&ch, err)))
		rc = NOT_HERE;
	if (rc == NOT_HERE)
		rc = from_profile(&ch, c, err);
	if (rc == NOT_HERE)
		rc = from_container(&ch, c, err);
	if (rc == NOT_HERE)
		rc = from_imds(&ch, c, err);
	if (rc == NOT_HERE)
		rc = ebs_fail(err, EBS_ERR_AUTH, "no AWS credentials: %s",
			      ch.tried.buf);
	if (rc)
		aws_creds_release(c);
	aws_ini_release(&ch.config);
	aws_ini_release(&ch.creds);
	free(ch.config_path);
	free(ch.creds_path);
	http_free(ch.http);
	sbuf_release(&ch.tried);
	return rc;
}

int aws_creds_load(struct aws_creds *c, char *err)
{
	struct aws_creds_opts o = { 0 };

	return aws_creds_resolve(c, &o, err);
}

int aws_creds_from_ini(const char *buf, const char *profile, const char *path,
		       struct aws_creds *c, char *err)
{
	struct aws_ini ini;
	const struct aws_ini_section *s;
	const char *akid, *secret, *token;
	int rc = EBS_OK;

	memset(c, 0, sizeof(*c));
	aws_ini_parse(buf, strlen(buf), &ini);
	s = aws_ini_section(&ini, profile);
	akid = aws_ini_get(s, "aws_access_key_id");
	secret = aws_ini_get(s, "aws_secret_access_key");
	token = aws_ini_get(s, "aws_session_token");
	if (!s)
		rc = ebs_fail(err, EBS_ERR_AUTH,
			      "no AWS credentials: '%s' has no profile '%s'",
			      path, profile);
	else if (!akid || !secret)
		rc = ebs_fail(
		    err, EBS_ERR_AUTH,
		    "no AWS credentials: profile '%s' in '%s' lacks aws_access_key_id or aws_secret_access_key",
		    profile, path);
	if (!rc) {
		c->access_key_id = xstrdup(akid);
		c->secret_access_key = xstrdup(secret);
		c->session_token = token ? xstrdup(token) : NULL;
		xsnprintf(c->source, sizeof(c->source), "profile '%s' in '%s'",
			  profile, path);
	}
	aws_ini_release(&ini);
	return rc;
}
