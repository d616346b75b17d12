/*
 * opt.c - the one option parser: reads argv against a table of struct opt
 * (include/ebsize/opt.h), checks ranges, enums, dates and units, and
 * prints uniform usage errors.  It never exits and never prints help: the
 * caller (src/cli.c) prints the help that src/cli_doc.c generates from the
 * same table.  No global state (unlike getopt): a parse is a pure function
 * of argv and the table, apart from its messages.
 */
#include "ebsize/opt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/msg.h"
#include "ebsize/util.h"

void opt_list_release(struct opt_list *l)
{
	if (!l)
		return;
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

static void list_add(struct opt_list *l, const char *s)
{
	xgrow((void **)&l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = s;
}

static void *field(void *args, const struct opt *o)
{
	return (char *)args + o->offset;
}

/* ------------------------------------------------------------ values */

void opt_join_choices(const char *const *choices, char *buf, size_t n)
{
	size_t k = 0, o = 0;

	buf[0] = '\0';
	while (choices[k])
		k++;
	for (size_t i = 0; i < k && o < n; i++) {
		const char *sep = !i ? "" : i + 1 == k ? " or " : ", ";

		xsnprintf(buf + o, n - o, "%s%s", sep, choices[i]);
		o = strlen(buf);
	}
}

int opt_valid_date(const char *s)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };
	int y = 0, m = 0, d = 0;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (int i = 0; i < 10; i++) {
		if (i == 4 || i == 7)
			continue;
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (i < 4)
			y = y * 10 + (s[i] - '0');
		else if (i < 7)
			m = m * 10 + (s[i] - '0');
		else
			d = d * 10 + (s[i] - '0');
	}
	if (m < 1 || m > 12 || d < 1)
		return 0;
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return d <= 29;
	return d <= mdays[m - 1];
}

/* One unit suffix and what it multiplies the number by. */
struct suffix {
	const char *text; /* compared case-insensitively */
	double factor;
};

static const struct suffix gib_suffixes[] = { { "GiB", 1 },  { "G", 1 },
					      { "Gi", 1 },   { "TiB", 1024 },
					      { "T", 1024 }, { "Ti", 1024 },
					      { NULL, 0 } };
static const struct suffix count_suffixes[] = { { "k", 1000 }, { NULL, 0 } };
static const struct suffix seconds_suffixes[] = { { "s", 1 },	 { "sec", 1 },
						  { "m", 60 },	 { "min", 60 },
						  { "h", 3600 }, { "d", 86400 },
						  { NULL, 0 } };
static const struct suffix mibps_suffixes[] = {
	{ "MiB/s", 1 }, { "M", 1 }, { "GiB/s", 1024 }, { NULL, 0 }
};
static const struct suffix kib_suffixes[] = { { "KiB", 1 },  { "k", 1 },
					      { "K", 1 },    { "MiB", 1024 },
					      { "M", 1024 }, { NULL, 0 } };

static const struct suffix *suffixes_of(enum opt_unit u)
{
	switch (u) {
	case OPT_UNIT_GIB: return gib_suffixes;
	case OPT_UNIT_COUNT: return count_suffixes;
	case OPT_UNIT_SECONDS: return seconds_suffixes;
	case OPT_UNIT_MIBPS: return mibps_suffixes;
	case OPT_UNIT_KIB: return kib_suffixes;
	default: return NULL;
	}
}

int opt_parse_quantity(const char *s, enum opt_unit unit, double *out)
{
	const struct suffix *sfx = suffixes_of(unit);
	size_t n = strlen(s), num = n;
	double factor = 1, v;
	char *copy;
	int rc;

	/* the number is the leading run of [0-9.eE+-]; the rest a suffix */
	if (sfx) {
		num = 0;
		while (num < n && strchr("0123456789.+-eE", s[num]))
			num++;
		/* "1e" + "x": an 'e' that starts no exponent belongs to no unit */
		if (num < n) {
			const struct suffix *f;

			for (f = sfx; f->text; f++)
				if (str_ieq(s + num, f->text))
					break;
			if (!f->text)
				return -1;
			factor = f->factor;
		}
	}
	if (!num)
		return -1;
	copy = xstrndup(s, num);
	rc = parse_double(copy, &v);
	free(copy);
	if (rc)
		return -1;
	*out = v * factor;
	return 0;
}

/* How a value of unit u is written, for messages ("" for none). */
static const char *unit_example(enum opt_unit u)
{
	switch (u) {
	case OPT_UNIT_GIB: return " GiB (such as 500, 500GiB or 1TiB)";
	case OPT_UNIT_COUNT: return " (such as 16000 or 16k)";
	case OPT_UNIT_SECONDS: return " seconds (such as 90, 90s, 30m or 1h)";
	case OPT_UNIT_MIBPS: return " MiB/s (such as 500 or 500MiB/s)";
	case OPT_UNIT_KIB: return " KiB (such as 16, 16KiB or 1MiB)";
	default: return "";
	}
}

static int bad_number(const char *cmd, const struct opt *o, const char *val)
{
	if (o->unit != OPT_UNIT_NONE && o->kind == OPT_INT)
		msg_usage_error(
		    cmd,
		    "--%s must be a whole number from %.0f to %.0f%s, not '%s'",
		    o->name, o->min, o->max, unit_example(o->unit), val);
	else if (o->unit != OPT_UNIT_NONE)
		msg_usage_error(
		    cmd, "--%s must be a number from %g to %g%s, not '%s'",
		    o->name, o->min, o->max, unit_example(o->unit), val);
	else if (o->kind == OPT_INT)
		msg_usage_error(
		    cmd,
		    "--%s must be a whole number from %.0f to %.0f, not '%s'",
		    o->name, o->min, o->max, val);
	else
		msg_usage_error(cmd,
				"--%s must be a number from %g to %g, not '%s'",
				o->name, o->min, o->max, val);
	return -1;
}

static int set_number(const char *cmd, const struct opt *o, const char *val,
		      void *target)
{
	double v;

	if (o->unit == OPT_UNIT_NONE) {
		if (parse_double(val, &v))
			return bad_number(cmd, o, val);
	} else if (opt_parse_quantity(val, o->unit, &v)) {
		return bad_number(cmd, o, val);
	}
	if (!isfinite(v) || v < o->min || v > o->max)
		return bad_number(cmd, o, val);
	if (o->kind == OPT_INT) {
		/* whole numbers only; "1e3" is fine, "3000.5" is not */
		if (v != floor(v) ||
		    (o->unit == OPT_UNIT_NONE && strpbrk(val, ".eE")))
			return bad_number(cmd, o, val);
		*(long *)target = (long)v;
	} else {
		*(double *)target = v;
	}
	return 0;
}

static int set_enum(const char *cmd, const struct opt *o, const char *val,
		    int *target)
{
	char names[256];

	for (int i = 0; o->choices[i]; i++) {
		if (!strcmp(o->choices[i], val)) {
			*target = i;
			return 0;
		}
	}
	opt_join_choices(o->choices, names, sizeof(names));
	if (o->noun)
		msg_usage_error(cmd, "unknown %s '%s' (use %s)", o->noun, val,
				names);
	else
		msg_usage_error(cmd, "--%s must be %s, not '%s'", o->name,
				names, val);
	return -1;
}

int opt_set(const char *cmd, const struct opt *o, const char *val, void *args)
{
	void *target = field(args, o);
	struct opt_list *l;

	switch (o->kind) {
	case OPT_FLAG: *(int *)target = 1; return 0;
	case OPT_STR: *(const char **)target = val; return 0;
	case OPT_LIST:
		l = target;
		if (o->max > 0 && (double)l->n >= o->max) {
			msg_usage_error(cmd,
					"too many --%s options (at most %.0f)",
					o->name, o->max);
			return -1;
		}
		list_add(l, val);
		return 0;
	case OPT_INT:
	case OPT_NUM: return set_number(cmd, o, val, target);
	case OPT_ENUM: return set_enum(cmd, o, val, target);
	case OPT_DATE:
		if (!opt_valid_date(val)) {
			msg_usage_error(
			    cmd, "--%s must be a date YYYY-MM-DD, not '%s'",
			    o->name, val);
			return -1;
		}
		*(const char **)target = val;
		return 0;
	case OPT_FUNC: return o->parse(cmd, o->name, val, target);
	case OPT_END: break;
	}
	return -1;
}

int opt_defaults(const char *cmd, const struct opt *opts, void *args)
{
	for (const struct opt *o = opts; o && o->name; o++)
		if (o->def && opt_set(cmd, o, o->def, args))
			return -1;
	return 0;
}

const struct opt *opt_find(const struct opt *opts, const char *name)
{
	for (const struct opt *o = opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

int opt_given(const struct opt *opts, const struct opt_seen *seen,
	      const char *name)
{
	const struct opt *o = opt_find(opts, name);

	return o && (seen->bits >> (o - opts) & 1);
}

void opt_release(const struct opt *opts, void *args)
{
	for (const struct opt *o = opts; o && o->name; o++)
		if (o->kind == OPT_LIST)
			opt_list_release(field(args, o));
}

/* ------------------------------------------------------------ argv */

static int takes_value(const struct opt *o)
{
	return o->kind != OPT_FLAG;
}

/*
 * The long option "--name" (name of len bytes) in opts: an exact match,
 * else a unique prefix.  NULL and *ambiguous set when several match.
 */
static const struct opt *find_long(const struct opt *opts, const char *name,
				   size_t len, int *ambiguous)
{
	const struct opt *hit = NULL;
	int hits = 0;

	*ambiguous = 0;
	for (const struct opt *o = opts; o && o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (!o->name[len])
			return o;
		hit = o;
		hits++;
	}
	if (hits > 1) {
		*ambiguous = 1;
		return NULL;
	}
	return hit;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	for (const struct opt *o = opts; o && o->name; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static int seen_option(const struct opt *opts, const struct opt *o,
		       struct opt_seen *seen, const char *cmd, const char *val,
		       void *args)
{
	seen->bits |= (uint64_t)1 << (o - opts);
	return opt_set(cmd, o, val, args);
}

/* One "--name[=value]" at argv[*i]; consumes a following value. */
static int parse_long_opt(const char *cmd, const struct opt *opts, int argc,
			  char **argv, int *i, void *args,
			  struct opt_seen *seen)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt *o;
	int ambiguous;

	if ((len == 4 && !strncmp(arg, "help", 4)) && !eq)
		return OPT_HELP;
	o = find_long(opts, arg, len, &ambiguous);
	if (!o) {
		if (ambiguous)
			msg_usage_error(cmd, "ambiguous option '%s'", argv[*i]);
		else if (eq)
			msg_usage_error(
			    cmd, "unknown option or unexpected value '%s'",
			    argv[*i]);
		else
			msg_usage_error(cmd, "unknown option '%s'", argv[*i]);
		return OPT_ERROR;
	}
	if (!takes_value(o)) {
		if (eq) {
			msg_usage_error(
			    cmd, "unknown option or unexpected value '%s'",
			    argv[*i]);
			return OPT_ERROR;
		}
		return seen_option(opts, o, seen, cmd, NULL, args) ? OPT_ERROR
								   : OPT_OK;
	}
	if (!eq) {
		if (*i + 1 >= argc) {
			msg_usage_error(cmd, "option '%s' needs a value",
					argv[*i]);
			return OPT_ERROR;
		}
		eq = argv[++*i] - 1; /* the value is the next word */
	}
	return seen_option(opts, o, seen, cmd, eq + 1, args) ? OPT_ERROR
							     : OPT_OK;
}

/* One "-xyz" cluster at argv[*i]: flags, then maybe one option's value. */
static int parse_short_opts(const char *cmd, const struct opt *opts, int argc,
			    char **argv, int *i, void *args,
			    struct opt_seen *seen)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct opt *o;

		if (*p == 'h')
			return OPT_HELP;
		o = find_short(opts, *p);
		if (!o) {
			msg_usage_error(cmd, "unknown option '-%c'", *p);
			return OPT_ERROR;
		}
		if (!takes_value(o)) {
			if (seen_option(opts, o, seen, cmd, NULL, args))
				return OPT_ERROR;
			continue;
		}
		if (p[1])
			return seen_option(opts, o, seen, cmd, p + 1, args)
				   ? OPT_ERROR
				   : OPT_OK;
		if (*i + 1 >= argc) {
			msg_usage_error(cmd, "option '-%c' needs a value", *p);
			return OPT_ERROR;
		}
		++*i;
		return seen_option(opts, o, seen, cmd, argv[*i], args)
			   ? OPT_ERROR
			   : OPT_OK;
	}
	return OPT_OK;
}

int opt_check_required(const char *cmd, const struct opt *opts,
		       const struct opt_seen *seen)
{
	char names[256];

	for (const struct opt *o = opts; o && o->name; o++) {
		if (!(o->flags & OPT_REQUIRED) ||
		    (seen->bits >> (o - opts) & 1))
			continue;
		if (o->missing && o->short_name) {
			msg_usage_error(cmd, "missing -%c %s", o->short_name,
					o->missing);
		} else if (o->missing) {
			msg_usage_error(cmd, "missing --%s %s", o->name,
					o->missing);
		} else if (o->choices) {
			opt_join_choices(o->choices, names, sizeof(names));
			msg_usage_error(cmd, "missing --%s (%s)", o->name,
					names);
		} else {
			msg_usage_error(cmd, "missing --%s %s", o->name,
					o->metavar ? o->metavar : "");
		}
		return -1;
	}
	return 0;
}

int opt_parse(const char *cmd, const struct opt *opts, int max_operands,
	      int argc, char **argv, void *args, struct opt_seen *seen,
	      struct opt_list *operands)
{
	int dashdash = 0;

	seen->bits = 0;
	if (opt_defaults(cmd, opts, args))
		return OPT_ERROR;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc = OPT_OK;

		if (!dashdash && !strcmp(a, "--")) {
			dashdash = 1;
			continue;
		}
		if (dashdash || a[0] != '-' || !a[1]) {
			if (max_operands >= 0 &&
			    operands->n >= (size_t)max_operands) {
				msg_usage_error(cmd, "unexpected argument '%s'",
						a);
				return OPT_ERROR;
			}
			list_add(operands, a);
			continue;
		}
		if (a[1] == '-')
			rc = parse_long_opt(cmd, opts, argc, argv, &i, args,
					    seen);
		else
			rc = parse_short_opts(cmd, opts, argc, argv, &i, args,
					      seen);
		if (rc != OPT_OK)
			return rc;
	}
	for (const struct opt *o = opts; o && o->name; o++)
		if ((o->flags & OPT_BATCH) && (seen->bits >> (o - opts) & 1))
			return OPT_OK; /* required of each request */
	return opt_check_required(cmd, opts, seen) ? OPT_ERROR : OPT_OK;
}
