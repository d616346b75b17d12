/*
 * aws_creds.h - AWS credentials for signing requests, found the way the
 * AWS CLI finds them (its documented precedence, botocore's provider
 * chain), first match wins:
 *
 *   1. the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 *      AWS_SESSION_TOKEN) - skipped when --profile names a profile;
 *   2. the profile (--profile, else AWS_PROFILE, else "default") in the
 *      shared config file (AWS_CONFIG_FILE, ~/.aws/config: [default],
 *      [profile x], [sso-session x]) and credentials file
 *      (AWS_SHARED_CREDENTIALS_FILE, ~/.aws/credentials), in the order
 *        a. role_arn: STS AssumeRole with the credentials of
 *           source_profile (a chain, at most AWS_CREDS_MAX_CHAIN deep) or
 *           credential_source, or AssumeRoleWithWebIdentity with
 *           web_identity_token_file;
 *        b. web identity from AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN;
 *        c. IAM Identity Center (SSO): the token `aws sso login` cached,
 *           then GetRoleCredentials on the SSO portal;
 *        d. static keys in the credentials file;
 *        e. credential_process (run without a shell, JSON on stdout);
 *        f. static keys in the config file;
 *   3. container credentials (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or
 *      _FULL_URI, with AWS_CONTAINER_AUTHORIZATION_TOKEN(_FILE));
 *   4. EC2 instance metadata, IMDSv2 only (AWS_EC2_METADATA_DISABLED=true
 *      skips it).
 *
 * The network sources use src/http.c.  Endpoint overrides follow the AWS
 * SDK variables: AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL_SSO,
 * AWS_EC2_METADATA_SERVICE_ENDPOINT; plain http only to loopback (and to
 * the fixed link-local container and metadata addresses).
 *
 * Secrets live only in struct aws_creds and are wiped on release; they
 * never reach a message, the trace or the source description.
 */
#ifndef EBSIZE_AWS_CREDS_H
#define EBSIZE_AWS_CREDS_H

#include <stddef.h>

struct aws_creds {
	char *access_key_id;
	char *secret_access_key;
	char *session_token;  /* NULL when none */
	long long expiration; /* Unix seconds; 0: none given */
	char source[400];     /* which source, e.g. "environment",
				   * "credential_process of profile 'x' in
				   * '/home/u/.aws/config'" - never a secret */
};

/* Longest source_profile chain followed. */
#define AWS_CREDS_MAX_CHAIN 8

struct aws_creds_opts {
	const char *profile;	/* --profile, or NULL */
	long long deadline_ms;	/* http_now_ms() clock; 0: none */
	long process_timeout_s; /* credential_process (0: 60) */
	/* Each source tried, in order, for --explain-credentials (may be
	 * NULL): a short name and what happened. */
	void (*trace)(void *arg, const char *source, const char *result);
	void *trace_arg;
};

/*
 * Find credentials as described above.  EBS_OK with c filled, or an
 * error (EBS_ERR_AUTH when nothing was found: the message says where it
 * looked; EBS_ERR_AUTH / EBS_ERR_NETWORK / EBS_ERR_PARSE / EBS_ERR_EXEC
 * when a configured source failed: the message names the source and what
 * to do).  Calls aws_creds_protect_process() first.  Release c with
 * aws_creds_release, whatever the result.
 */
int aws_creds_resolve(struct aws_creds *c, const struct aws_creds_opts *o,
		      char *err);

/* aws_creds_resolve with no profile option, no deadline, no trace. */
int aws_creds_load(struct aws_creds *c, char *err);

/*
 * Read the static keys of profile from the INI text buf (a credentials
 * file) into c.  EBS_OK, or EBS_ERR_AUTH when the profile or its keys
 * are missing.
 */
int aws_creds_from_ini(const char *buf, const char *profile, const char *path,
		       struct aws_creds *c, char *err);

/*
 * No core dumps and (Linux) not dumpable from here on, so a crash does not
 * write the secret to disk.  aws_creds_resolve() calls it first.
 */
void aws_creds_protect_process(void);

/* The access key id masked for display: "****************WXYZ". */
void aws_creds_mask_key(const char *akid, char out[24]);

/* Wipe and free; NULL-safe, leaves c zeroed. */
void aws_creds_release(struct aws_creds *c);

#endif
