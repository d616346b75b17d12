/* xmlcheck.c - see xmlcheck.h. */
#include "xmlcheck.h"

#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 64

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':' ||
	       c == '.';
}

/* An entity at s ("&amp;", "&#39;", "&#x263A;"): its length, 0 if bad. */
static size_t entity(const char *s)
{
	static const char *const named[] = { "&amp;", "&lt;", "&gt;", "&quot;",
					     "&apos;" };
	size_t k = 2;

	for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++)
		if (!strncmp(s, named[i], strlen(named[i])))
			return strlen(named[i]);
	if (s[1] != '#')
		return 0;
	if (s[2] == 'x') {
		k = 3;
		while ((s[k] >= '0' && s[k] <= '9') ||
		       (s[k] >= 'a' && s[k] <= 'f') ||
		       (s[k] >= 'A' && s[k] <= 'F'))
			k++;
	} else {
		while (s[k] >= '0' && s[k] <= '9')
			k++;
	}
	return s[k] == ';' && k > 2 ? k + 1 : 0;
}

static int fail(char *why, size_t n, const char *what, size_t off)
{
	snprintf(why, n, "%s at offset %zu", what, off);
	return -1;
}

int xml_check(const char *s, char *why, size_t n)
{
	const char *stack[MAX_DEPTH];
	size_t len[MAX_DEPTH], depth = 0, roots = 0;
	const char *p = s;

	snprintf(why, n, "ok");
	while (*p) {
		if (*p == '&') {
			size_t e = entity(p);

			if (!e)
				return fail(why, n, "bad entity",
					    (size_t)(p - s));
			p += e;
		} else if (*p != '<') {
			if (!depth && *p != '\n' && *p != ' ')
				return fail(why, n, "text outside the root",
					    (size_t)(p - s));
			p++;
		} else if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4)) {
			const char *end = strstr(p, p[1] == '?' ? "?>" : "-->");

			if (!end)
				return fail(why, n, "unterminated declaration",
					    (size_t)(p - s));
			p = end + 2;
		} else if (p[1] == '/') {
			const char *q = p + 2;

			while (name_char(*q))
				q++;
			if (!depth || (size_t)(q - p - 2) != len[depth - 1] ||
			    strncmp(p + 2, stack[depth - 1], len[depth - 1]) ||
			    *q != '>')
				return fail(why, n, "mismatched end tag",
					    (size_t)(p - s));
			depth--;
			p = q + 1;
		} else {
			const char *q = p + 1, *name = q;
			size_t name_len;

			while (name_char(*q))
				q++;
			name_len = (size_t)(q - name);
			if (q == name)
				return fail(why, n, "raw '<' or empty tag name",
					    (size_t)(p - s));
			if (!depth && roots++)
				return fail(why, n, "a second root element",
					    (size_t)(p - s));
			for (;;) {
				const char *an;

				while (*q == ' ' || *q == '\n' || *q == '\t')
					q++;
				if (*q == '>' || (q[0] == '/' && q[1] == '>'))
					break;
				an = q;
				while (name_char(*q))
					q++;
				if (q == an || q[0] != '=' ||
				    (q[1] != '"' && q[1] != '\''))
					return fail(why, n, "bad attribute",
						    (size_t)(q - s));
				{
					char quote = q[1];

					for (q += 2; *q && *q != quote; q++) {
						if (*q == '<')
							return fail(
							    why, n,
							    "'<' in an attribute",
							    (size_t)(q - s));
						if (*q == '&') {
							size_t e = entity(q);

							if (!e)
								return fail(
								    why, n,
								    "bad entity in an attribute",
								    (size_t)(q -
									     s));
							q += e - 1;
						}
					}
					if (!*q)
						return fail(
						    why, n,
						    "unterminated attribute",
						    (size_t)(an - s));
					q++;
				}
			}
			if (*q == '/') {
				p = q + 2;
				continue;
			}
			if (depth == MAX_DEPTH)
				return fail(why, n, "nesting too deep",
					    (size_t)(p - s));
			stack[depth] = name;
			len[depth++] = name_len;
			p = q + 1;
		}
	}
	if (depth)
		return fail(why, n, "unclosed element", strlen(s));
	if (!roots)
		return fail(why, n, "no root element", 0);
	return 0;
}
