/*
 * fuzz_aws_config.c - libFuzzer harness for the parsers of the AWS
 * credential chain (src/aws_config_parse.c): the shared config and
 * credentials INI files (with the lookups the chain makes), the JSON
 * answers of credential_process, the container and instance-metadata
 * endpoints, the SSO portal and the SSO token cache, STS's XML, ISO 8601
 * times and credential_process command splitting.  The first byte picks
 * the parser.  Not part of `make test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/aws_config.h"
#include "ebsize/aws_creds.h"
#include "ebsize/err.h"
#include "ebsize/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ini(const char *buf, size_t len)
{
	static const char *const sections[] = {
		"default", "profile default", "profile dev", "sso-session corp", "x",
	};
	static const char *const keys[] = {
		"aws_access_key_id", "aws_secret_access_key", "role_arn",
		"source_profile", "credential_process", "sso_session", "region",
	};
	struct aws_ini in;

	aws_ini_parse(buf, len, &in);
	for (size_t s = 0; s < sizeof(sections) / sizeof(*sections); s++)
		for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
			(void)aws_ini_get(aws_ini_section(&in, sections[s]), keys[k]);
	aws_ini_release(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aws_creds c;
	char err[EBS_ERRLEN], *tok = NULL, *s, **argv = NULL, hex[41], key[24];
	const char *buf = (const char *)data + 1;
	size_t len = size ? size - 1 : 0, argc;
	long long t;

	if (!size)
		return 0;
	s = malloc(len + 1);          /* the NUL-terminated views */
	memcpy(s, buf, len);
	s[len] = '\0';
	switch (data[0] % 8) {
	case 0:
		ini(buf, len);
		break;
	case 1:
	case 2:
	case 3:
		(void)aws_parse_creds_json((enum aws_doc)(data[0] % 8 - 1), buf, len,
					   "fuzz", &c, err);
		aws_creds_mask_key(c.access_key_id, key);
		aws_creds_release(&c);
		break;
	case 4:
		if (!aws_parse_sso_cache(buf, len, "fuzz", &tok, &t, err))
			free(tok);
		break;
	case 5:
		(void)aws_parse_sts_xml(buf, len, "fuzz", &c, err);
		aws_creds_release(&c);
		break;
	case 6:
		(void)iso8601_to_epoch(s, &t);
		aws_sha1_hex(s, hex);
		break;
	default:
		if (!aws_split_command(s, &argv, &argc, err) && argv[argc])
			abort();
		aws_argv_free(argv);
		break;
	}
	free(s);
	return 0;
}
