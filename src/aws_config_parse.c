/*
 * aws_config_parse.c - the parsers of the AWS credential chain: shared
 * config/credentials INI files, the JSON answers of credential_process,
 * the SSO cache and portal, container and instance-metadata endpoints,
 * STS's XML, ISO 8601 times, command-line splitting and SHA-1 (for the
 * SSO cache file name).  See aws_config.h.
 *
 * Bytes in, structs out; no I/O.  struct aws_creds is filled here, so its
 * release (which wipes the secrets) lives here too.  Values that may be
 * secret are never copied into messages: errors name the member instead.
 */
#include "ebsize/aws_config.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/aws_creds.h"
#include "ebsize/err.h"
#include "ebsize/util.h"

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

void aws_creds_mask_key(const char *akid, char out[24])
{
	size_t n = akid ? strlen(akid) : 0;

	xsnprintf(out, 24, "****************%s", n >= 4 ? akid + n - 4 : "");
}

/* ------------------------------------------------------------ INI */

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

static struct aws_ini_section *section_for(struct aws_ini *ini,
					   const char *name)
{
	struct aws_ini_section *s;

	for (size_t i = 0; i < ini->n; i++)
		if (!strcmp(ini->s[i].name, name))
			return &ini->s[i];
	xgrow((void **)&ini->s, &ini->alloc, ini->n + 1, sizeof(*ini->s));
	s = &ini->s[ini->n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

static void section_set(struct aws_ini_section *s, const char *key,
			const char *value)
{
	struct aws_ini_kv *kv;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->kv[i].key, key)) {
			wipe_free(s->kv[i].value);
			s->kv[i].value = xstrdup(value);
			return;
		}
	xgrow((void **)&s->kv, &s->alloc, s->n + 1, sizeof(*s->kv));
	kv = &s->kv[s->n++];
	kv->key = xstrdup(key);
	kv->value = xstrdup(value);
}

static size_t indent_of(const char *l)
{
	size_t n = 0;

	while (l[n] == ' ' || l[n] == '\t')
		n++;
	return n;
}

/* One line of an INI file, into ini; *cur and *key_indent track state. */
static void ini_line(struct aws_ini *ini, char *line,
		     struct aws_ini_section **cur, long *key_indent)
{
	size_t ind = indent_of(line);
	char *l = trim(line), *sep;

	if (!*l || *l == '#' || *l == ';')
		return;
	if (*cur && *key_indent >= 0 && (long)ind > *key_indent)
		return; /* nested block under the previous key */
	if (*l == '[') {
		char *close = strrchr(l, ']');

		if (close) {
			*close = '\0';
			*cur = section_for(ini, trim(l + 1));
		} else {
			*cur = NULL;
		}
		*key_indent = -1;
		return;
	}
	if (!*cur)
		return;
	sep = l + strcspn(l, "=:");
	if (!*sep)
		return;
	*sep = '\0';
	for (char *k = l; *k; k++)
		if (*k >= 'A' && *k <= 'Z')
			*k = (char)(*k - 'A' + 'a');
	*key_indent = (long)ind;
	section_set(*cur, trim(l), trim(sep + 1));
}

void aws_ini_parse(const char *buf, size_t len, struct aws_ini *out)
{
	char *copy = xstrndup(buf, len), *line, *next;
	struct aws_ini_section *cur = NULL;
	long key_indent = -1;

	memset(out, 0, sizeof(*out));
	line = copy;
	if (str_starts_with(line, "\xef\xbb\xbf"))
		line += 3;
	for (; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ini_line(out, line, &cur, &key_indent);
	}
	/* the copy held secrets */
	memset(copy, 0, len);
	free(copy);
}

void aws_ini_release(struct aws_ini *ini)
{
	if (!ini)
		return;
	for (size_t i = 0; i < ini->n; i++) {
		struct aws_ini_section *s = &ini->s[i];

		for (size_t k = 0; k < s->n; k++) {
			free(s->kv[k].key);
			wipe_free(s->kv[k].value);
		}
		free(s->kv);
		free(s->name);
	}
	free(ini->s);
	memset(ini, 0, sizeof(*ini));
}

const struct aws_ini_section *aws_ini_section(const struct aws_ini *ini,
					      const char *name)
{
	for (size_t i = 0; ini && i < ini->n; i++)
		if (!strcmp(ini->s[i].name, name))
			return &ini->s[i];
	return NULL;
}

const char *aws_ini_get(const struct aws_ini_section *sec, const char *key)
{
	for (size_t i = 0; sec && i < sec->n; i++)
		if (!strcmp(sec->kv[i].key, key))
			return *sec->kv[i].value ? sec->kv[i].value : NULL;
	return NULL;
}

/* ------------------------------------------------------------ times */

/* ------------------------------------------------------------ JSON */

static const char *jstr(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

/* Copy the three values into c (akid and secret required). */
static int take_creds(struct aws_creds *c, const char *akid, const char *secret,
		      const char *token, const char *what, const char *names,
		      char *err)
{
	if (!akid || !secret)
		return ebs_fail(err, EBS_ERR_PARSE, "%s: the answer lacks %s",
				what, names);
	c->access_key_id = xstrdup(akid);
	c->secret_access_key = xstrdup(secret);
	c->session_token = token ? xstrdup(token) : NULL;
	return EBS_OK;
}

/* An Expiration member (ISO 8601) into c; absent is fine. */
static int take_expiration(struct aws_creds *c, const cJSON *doc,
			   const char *key, const char *what, char *err)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, key);

	if (!e || cJSON_IsNull(e))
		return EBS_OK;
	if (!cJSON_IsString(e) ||
	    iso8601_to_epoch(e->valuestring, &c->expiration))
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: \"%s\" is not an ISO 8601 time", what,
				key);
	return EBS_OK;
}

static int parse_process(const cJSON *doc, const char *what,
			 struct aws_creds *c, char *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "Version");
	int rc;

	if (!cJSON_IsNumber(v) || v->valuedouble != 1)
		return ebs_fail(err, EBS_ERR_PARSE, "%s: \"Version\" must be 1",
				what);
	if ((rc = take_creds(c, jstr(doc, "AccessKeyId"),
			     jstr(doc, "SecretAccessKey"),
			     jstr(doc, "SessionToken"), what,
			     "\"AccessKeyId\" or \"SecretAccessKey\"", err)))
		return rc;
	return take_expiration(c, doc, "Expiration", what, err);
}

static int parse_container(const cJSON *doc, const char *what,
			   struct aws_creds *c, char *err)
{
	const char *code = jstr(doc, "Code");
	int rc;

	if (code && strcmp(code, "Success"))
		return ebs_fail(err, EBS_ERR_AUTH,
				"%s: the answer's Code is not Success", what);
	if ((rc = take_creds(c, jstr(doc, "AccessKeyId"),
			     jstr(doc, "SecretAccessKey"), jstr(doc, "Token"),
			     what, "\"AccessKeyId\" or \"SecretAccessKey\"",
			     err)))
		return rc;
	return take_expiration(c, doc, "Expiration", what, err);
}

static int parse_sso_role(const cJSON *doc, const char *what,
			  struct aws_creds *c, char *err)
{
	const cJSON *rc_ =
	    cJSON_GetObjectItemCaseSensitive(doc, "roleCredentials");
	const cJSON *exp = cJSON_GetObjectItemCaseSensitive(rc_, "expiration");
	int rc;

	if (!cJSON_IsObject(rc_))
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: no \"roleCredentials\" object", what);
	if ((rc = take_creds(c, jstr(rc_, "accessKeyId"),
			     jstr(rc_, "secretAccessKey"),
			     jstr(rc_, "sessionToken"), what,
			     "\"accessKeyId\" or \"secretAccessKey\"", err)))
		return rc;
	if (cJSON_IsNumber(exp) && exp->valuedouble > 0 &&
	    exp->valuedouble < 1e15)
		c->expiration = (long long)(exp->valuedouble / 1000);
	return EBS_OK;
}

int aws_parse_creds_json(enum aws_doc kind, const char *buf, size_t len,
			 const char *what, struct aws_creds *c, char *err)
{
	cJSON *doc = cJSON_ParseWithLength(buf, len);
	int rc;

	memset(c, 0, sizeof(*c));
	if (!cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: the answer is not a JSON object", what);
	}
	switch (kind) {
	case AWS_DOC_PROCESS: rc = parse_process(doc, what, c, err); break;
	case AWS_DOC_CONTAINER: rc = parse_container(doc, what, c, err); break;
	default: rc = parse_sso_role(doc, what, c, err); break;
	}
	cJSON_Delete(doc);
	if (rc)
		aws_creds_release(c);
	return rc;
}

int aws_parse_sso_cache(const char *buf, size_t len, const char *what,
			char **token, long long *expires, char *err)
{
	cJSON *doc = cJSON_ParseWithLength(buf, len);
	const char *t = jstr(doc, "accessToken"), *e = jstr(doc, "expiresAt");
	int rc = EBS_OK;

	*token = NULL;
	*expires = 0;
	if (!cJSON_IsObject(doc))
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "cannot parse '%s': not a JSON object", what);
	else if (!t)
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "cannot parse '%s': no \"accessToken\"", what);
	else if (!e || iso8601_to_epoch(e, expires))
		rc = ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': \"expiresAt\" is missing or not an ISO 8601 time",
		    what);
	else
		*token = xstrdup(t);
	cJSON_Delete(doc);
	return rc;
}

/* ------------------------------------------------------------ XML */

/*
 * The text of the first <tag>...</tag> inside [s, end), entities decoded
 * (&amp; &lt; &gt; &quot; &apos; &#N; &#xN;), as a heap string; NULL
 * when absent or when the text holds markup or a bad entity.  A tag with
 * attributes (<tag a="b">) is matched too.
 */
static char *xml_text(const char *s, const char *end, const char *tag)
{
	size_t tl = strlen(tag);
	struct sbuf sb = SBUF_INIT(1u << 20);
	const char *p = s, *q;

	for (;; p++) {
		p = memchr(p, '<', (size_t)(end - p));
		if (!p || (size_t)(end - p) < tl + 2)
			return NULL;
		if (!memcmp(p + 1, tag, tl) &&
		    (p[tl + 1] == '>' || p[tl + 1] == ' '))
			break;
	}
	if (!(p = memchr(p, '>', (size_t)(end - p))))
		return NULL;
	p++;
	if (!(q = memchr(p, '<', (size_t)(end - p))) ||
	    (size_t)(end - q) < tl + 3 || q[1] != '/' ||
	    memcmp(q + 2, tag, tl) || q[tl + 2] != '>')
		return NULL;
	sbuf_addstr(&sb, "");
	while (p < q) {
		static const char *const ent[][2] = {
			{ "&amp;", "&" },   { "&lt;", "<" },   { "&gt;", ">" },
			{ "&quot;", "\"" }, { "&apos;", "'" },
		};
		size_t k;

		if (*p != '&') {
			sbuf_add(&sb, p++, 1);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(ent); k++)
			if ((size_t)(q - p) >= strlen(ent[k][0]) &&
			    !memcmp(p, ent[k][0], strlen(ent[k][0])))
				break;
		if (k < ARRAY_SIZE(ent)) {
			sbuf_addstr(&sb, ent[k][1]);
			p += strlen(ent[k][0]);
			continue;
		}
		if (q - p >= 4 && p[1] == '#') {
			int hex = p[2] == 'x' || p[2] == 'X';
			const char *d = p + 2 + hex;
			unsigned long v = 0;

			for (; d < q && *d != ';'; d++) {
				int h = *d >= '0' && *d <= '9' ? *d - '0'
					: hex && *d >= 'a' && *d <= 'f'
					    ? *d - 'a' + 10
					: hex && *d >= 'A' && *d <= 'F'
					    ? *d - 'A' + 10
					    : -1;

				if (h < 0 || v > 0x10ffff)
					break;
				v = v * (hex ? 16 : 10) + (unsigned long)h;
			}
			if (d < q && *d == ';' && v > 0 && v < 0x80 &&
			    d > p + 2 + hex) {
				char c = (char)v;

				sbuf_add(&sb, &c, 1);
				p = d + 1;
				continue;
			}
		}
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}

/* Keep text from outside printable: it goes into a one-line message. */
static void printable(char *s, size_t max)
{
	size_t n = 0;

	for (; s[n] && n < max; n++)
		if ((unsigned char)s[n] < 0x20 || s[n] == 0x7f)
			s[n] = ' ';
	s[n] = '\0';
}

int aws_parse_sts_xml(const char *buf, size_t len, const char *what,
		      struct aws_creds *c, char *err)
{
	const char *end = buf + len, *cr;
	char *akid = NULL, *secret = NULL, *token = NULL, *exp = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	cr = buf && len ? memchr(buf, '<', len) : NULL;
	for (; cr; cr = memchr(cr + 1, '<', (size_t)(end - cr - 1))) {
		if ((size_t)(end - cr) >= 13 &&
		    !memcmp(cr, "<Credentials>", 13))
			break;
	}
	if (!cr) {
		char *code = buf ? xml_text(buf, end, "Code") : NULL;
		char *msg = buf ? xml_text(buf, end, "Message") : NULL;

		if (code) {
			printable(code, 100);
			if (msg)
				printable(msg, 300);
			rc = ebs_fail(err, EBS_ERR_AUTH, "%s: %s%s%s", what,
				      code, msg ? ": " : "", msg ? msg : "");
		} else {
			rc = ebs_fail(err, EBS_ERR_PARSE,
				      "%s: no <Credentials> in the answer",
				      what);
		}
		free(code);
		free(msg);
		return rc;
	}
	akid = xml_text(cr, end, "AccessKeyId");
	secret = xml_text(cr, end, "SecretAccessKey");
	token = xml_text(cr, end, "SessionToken");
	exp = xml_text(cr, end, "Expiration");
	if (!akid || !*akid || !secret || !*secret || !token || !*token)
		rc = ebs_fail(
		    err, EBS_ERR_PARSE,
		    "%s: <Credentials> lacks AccessKeyId, SecretAccessKey or SessionToken",
		    what);
	else if (exp && iso8601_to_epoch(exp, &c->expiration))
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "%s: <Expiration> is not an ISO 8601 time", what);
	else
		rc = take_creds(c, akid, secret, token, what, "", err);
	wipe_free(akid);
	wipe_free(secret);
	wipe_free(token);
	free(exp);
	if (rc)
		aws_creds_release(c);
	return rc;
}

/* ------------------------------------------------------------ commands */

void aws_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Push the word being built (it exists even when empty: '' is a word). */
static void push_word(char ***argv, size_t *n, size_t *alloc, struct sbuf *w)
{
	xgrow((void **)argv, alloc, *n + 2, sizeof(**argv));
	(*argv)[(*n)++] = w->buf ? sbuf_detach(w, NULL) : xstrdup("");
	(*argv)[*n] = NULL;
}

int aws_split_command(const char *cmd, char ***argv, size_t *argc, char *err)
{
	struct sbuf w = SBUF_INIT((size_t)-1 / 2);
	size_t n = 0, alloc = 0;
	int in_word = 0;
	char q = 0;

	*argv = NULL;
	*argc = 0;
	for (const char *p = cmd; *p; p++) {
		if (q == '\'') {
			if (*p == '\'')
				q = 0;
			else
				sbuf_add(&w, p, 1);
		} else if (q == '"') {
			if (*p == '"')
				q = 0;
			else if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
				sbuf_add(&w, ++p, 1);
			else
				sbuf_add(&w, p, 1);
		} else if (*p == ' ' || *p == '\t' || *p == '\n' ||
			   *p == '\r') {
			if (in_word)
				push_word(argv, &n, &alloc, &w);
			in_word = 0;
			continue;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '\\') {
			if (!p[1]) {
				q = '\\';
				break;
			}
			sbuf_add(&w, ++p, 1);
		} else {
			sbuf_add(&w, p, 1);
		}
		in_word = 1;
	}
	if (q) {
		sbuf_release(&w);
		aws_argv_free(*argv);
		*argv = NULL;
		return ebs_fail(err, EBS_ERR_PARSE, "%s",
				q == '\\' ? "it ends with a lone backslash"
					  : "a quotation is not closed");
	}
	if (in_word)
		push_word(argv, &n, &alloc, &w);
	sbuf_release(&w);
	if (!n) {
		free(*argv);
		*argv = NULL;
		return ebs_fail(err, EBS_ERR_PARSE, "it is empty");
	}
	*argc = n;
	return EBS_OK;
}

/* ------------------------------------------------------------ SHA-1 */

/* FIPS 180-4 SHA-1, enough for cache file names (not for security). */
struct sha1 {
	uint32_t h[5];
	uint64_t len;
	unsigned char blk[64];
	size_t n;
};

static uint32_t rol(uint32_t x, int k)
{
	return (x << k) | (x >> (32 - k));
}

static void sha1_block(struct sha1 *s, const unsigned char *b)
{
	uint32_t w[80], a = s->h[0], bb = s->h[1], c = s->h[2], d = s->h[3],
			e = s->h[4];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
		       (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (int i = 0; i < 80; i++) {
		uint32_t f, k, t;

		if (i < 20) {
			f = (bb & c) | (~bb & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = bb ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (bb & c) | (bb & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = bb ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(bb, 30);
		bb = a;
		a = t;
	}
	s->h[0] += a;
	s->h[1] += bb;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
}

static void sha1_add(struct sha1 *s, const unsigned char *p, size_t n)
{
	s->len += n;
	while (n--) {
		s->blk[s->n++] = *p++;
		if (s->n == 64) {
			sha1_block(s, s->blk);
			s->n = 0;
		}
	}
}

void aws_sha1_hex(const char *str, char out[41])
{
	struct sha1 s = { { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
			    0xc3d2e1f0 },
			  0,
			  { 0 },
			  0 };
	uint64_t bits;
	unsigned char pad = 0x80, zero = 0, lenb[8];

	sha1_add(&s, (const unsigned char *)str, strlen(str));
	bits = s.len * 8;
	sha1_add(&s, &pad, 1);
	while (s.n != 56)
		sha1_add(&s, &zero, 1);
	for (int i = 0; i < 8; i++)
		lenb[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha1_add(&s, lenb, 8);
	for (int i = 0; i < 5; i++)
		xsnprintf(out + 8 * i, 9, "%08x", (unsigned)s.h[i]);
}
