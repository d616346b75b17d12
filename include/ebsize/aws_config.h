/*
 * aws_config.h - the parsers behind the AWS credential chain
 * (src/aws_config_parse.c): the shared config and credentials files (INI,
 * as botocore's configparser reads them), the JSON documents credential
 * sources answer with (credential_process output, the SSO token cache,
 * SSO GetRoleCredentials, container and instance-metadata credentials),
 * STS's XML answers, ISO 8601 times and credential_process command lines.
 *
 * Bytes in, structs out: no I/O, no network, nothing printed; each has a
 * libFuzzer harness (tests/fuzz/fuzz_aws_config.c).  Secret values are
 * wiped when released.  Messages never quote a secret value.
 */
#ifndef EBSIZE_AWS_CONFIG_H
#define EBSIZE_AWS_CONFIG_H

#include <stddef.h>

struct aws_creds;

/* ------------------------------------------------------------ INI */

struct aws_ini_kv {
	char *key;   /* lower-cased */
	char *value; /* trimmed; wiped on release */
};

struct aws_ini_section {
	char *name; /* trimmed, as written: "default", "profile x" */
	struct aws_ini_kv *kv;
	size_t n, alloc;
};

struct aws_ini {
	struct aws_ini_section *s;
	size_t n, alloc;
};

/*
 * Parse INI text: [section] headers, "key = value" or "key: value" lines
 * (the first '=' or ':' splits; keys lower-cased, as configparser does),
 * '#' and ';' comment lines, a UTF-8 BOM, CRLF.  A line indented deeper
 * than the key before it continues that key's nested block (botocore's
 * "s3 =\n  max_concurrent_requests = 20") and is not a key of the section.
 * A repeated section adds to the first; a repeated key replaces.  Lines
 * before any section and lines without a separator are ignored.  Never
 * fails; release with aws_ini_release (NULL-safe).
 */
void aws_ini_parse(const char *buf, size_t len, struct aws_ini *out);
void aws_ini_release(struct aws_ini *ini);

/* The section named name, or NULL. */
const struct aws_ini_section *aws_ini_section(const struct aws_ini *ini,
					      const char *name);
/* The value of key in sec (NULL-safe), or NULL when absent or empty. */
const char *aws_ini_get(const struct aws_ini_section *sec, const char *key);

/* ------------------------------------------------------------ documents */

/*
 * Credentials from a JSON document into c (reset first; release with
 * aws_creds_release).  The kinds and their members:
 *  AWS_DOC_PROCESS    credential_process output: Version (must be 1),
 *                     AccessKeyId, SecretAccessKey, SessionToken?,
 *                     Expiration? (ISO 8601)
 *  AWS_DOC_CONTAINER  container and instance-metadata credentials:
 *                     AccessKeyId, SecretAccessKey, Token?, Expiration?;
 *                     a Code other than "Success" is an error
 *  AWS_DOC_SSO_ROLE   SSO GetRoleCredentials: roleCredentials {accessKeyId,
 *                     secretAccessKey, sessionToken, expiration (ms)}
 * what names the source in messages.  EBS_OK, or EBS_ERR_PARSE /
 * EBS_ERR_AUTH with a message naming the missing member (never a value).
 */
enum aws_doc { AWS_DOC_PROCESS, AWS_DOC_CONTAINER, AWS_DOC_SSO_ROLE };
int aws_parse_creds_json(enum aws_doc kind, const char *buf, size_t len,
			 const char *what, struct aws_creds *c, char *err);

/*
 * An SSO token cache file (~/.aws/sso/cache/<sha1>.json): accessToken
 * (heap copy into *token, wipe and free it) and expiresAt (*expires, Unix
 * seconds).  EBS_OK or EBS_ERR_PARSE.
 */
int aws_parse_sso_cache(const char *buf, size_t len, const char *what,
			char **token, long long *expires, char *err);

/*
 * An STS AssumeRole / AssumeRoleWithWebIdentity answer (XML).  On a
 * <Credentials> block: c filled, EBS_OK.  On an <Error>: EBS_ERR_AUTH
 * with code and message (cleaned, never a credential) in err.  Else
 * EBS_ERR_PARSE.
 */
int aws_parse_sts_xml(const char *buf, size_t len, const char *what,
		      struct aws_creds *c, char *err);

/* ------------------------------------------------------------ commands */

/*
 * Split a credential_process command line into words the way botocore
 * does (POSIX shlex): blanks separate, '...' is literal, "..." keeps
 * blanks and lets '\' escape '"' and '\', a '\' outside quotes escapes
 * the next character.  *argv (NULL-terminated, *argc words) is freed
 * with aws_argv_free.  EBS_OK, or EBS_ERR_PARSE for an unclosed quote or
 * an empty command.
 */
int aws_split_command(const char *cmd, char ***argv, size_t *argc, char *err);
void aws_argv_free(char **argv);

/* SHA-1 of s as 40 lower-case hex digits (the SSO cache file name). */
void aws_sha1_hex(const char *s, char out[41]);

#endif
