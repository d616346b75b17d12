/*
 * aws_creds.h - AWS credentials for signing requests: the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), else a
 * profile (AWS_PROFILE, default "default") in the shared credentials file
 * (AWS_SHARED_CREDENTIALS_FILE, default ~/.aws/credentials).  No SSO, no
 * instance metadata, no config-file source_profile chains.
 *
 * The secret lives only in this struct and is wiped on release; it is
 * never copied into messages.
 */
#ifndef EBSIZE_AWS_CREDS_H
#define EBSIZE_AWS_CREDS_H

#include <stddef.h>

struct aws_creds {
	char *access_key_id;
	char *secret_access_key;
	char *session_token;      /* NULL when none */
	char source[300];         /* "environment" or "profile 'x' in 'path'" */
};

/*
 * Load credentials as described above.  EBS_OK, or EBS_ERR_AUTH with a
 * message saying where it looked (EBS_ERR_PARSE / EBS_ERR_IO for an
 * unreadable or malformed file).  Release with aws_creds_release.
 * Calls aws_creds_protect_process() first.
 */
int aws_creds_load(struct aws_creds *c, char *err);

/*
 * Read profile from the INI text buf (a credentials file) into c.
 * EBS_OK, or EBS_ERR_AUTH when the profile or its keys are missing.
 */
int aws_creds_from_ini(const char *buf, const char *profile,
		       const char *path, struct aws_creds *c, char *err);

/*
 * No core dumps and (Linux) not dumpable from here on, so a crash does not
 * write the secret to disk.  aws_creds_load() calls it first.
 */
void aws_creds_protect_process(void);

/* Wipe and free; NULL-safe, leaves c zeroed. */
void aws_creds_release(struct aws_creds *c);

#endif
