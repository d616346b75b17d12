/*
 * cmd_bench_k8s.c - `ebsize bench k8s`: Kubernetes manifests that run the
 * same fio profile on EBS volumes of the given types (bench_k8s.c writes
 * them); the options are checked so nothing user-given reaches YAML or a
 * shell line as syntax.
 */
#include "cmd_bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

struct k8s_args {
	struct bench_k8s_opts o;
	const char *types;
	const char *profile;
	char typebuf[256];
};

#define A(f) offsetof(struct k8s_args, f)

static const struct opt k8s_opts[] = {
	{ "types", 0, OPT_STR, A(types), "LIST",
	  "volume types, comma-separated (gp2, gp3, io1, io2, st1, sc1)",
	  .choices = cli_type_names, .missing = "(for example gp2,gp3)",
	  .flags = OPT_REQUIRED },
	{ "size", 0, OPT_STR, A(o.size), "QTY",
	  "each volume's size, a Kubernetes quantity such as 100Gi",
	  .missing = "(a Kubernetes quantity such as 100Gi)",
	  .flags = OPT_REQUIRED },
	{ "instance", 0, OPT_STR, A(o.instance), "TYPE",
	  "schedule on this instance type (node.kubernetes.io/instance-type)" },
	{ "profile", 0, OPT_STR, A(profile), "P",
	  "article, quick or a profile file", .def = "article",
	  .flags = OPT_PATH },
	{ "namespace", 0, OPT_STR, A(o.namespace_), "NS", "the namespace",
	  .def = "bench-storage" },
	{ "image", 0, OPT_STR, A(o.image), "IMG",
	  "the container image (fio is installed in it)",
	  .def = "alpine:3.20" },
	{ "iops", 0, OPT_INT, A(o.iops), "N",
	  "provisioned IOPS (gp3, io1, io2)", .min = 100, .max = 256000,
	  .unit = OPT_UNIT_COUNT },
	{ "throughput", 0, OPT_INT, A(o.throughput_mibps), "M",
	  "provisioned MiB/s (gp3)", .min = 125, .max = 2000,
	  .unit = OPT_UNIT_MIBPS },
	{ NULL }
};

/* A Kubernetes quantity in Gi or Ti ("100Gi"); 0 if well-formed. */
static int quantity_ok(const char *s)
{
	size_t n = strlen(s);
	char num[16];
	long v;

	if (n < 3 || n > 12 ||
	    (strcmp(s + n - 2, "Gi") && strcmp(s + n - 2, "Ti")))
		return -1;
	memcpy(num, s, n - 2);
	num[n - 2] = '\0';
	return parse_long_range(num, 1, 65536, &v);
}

static int parse_types(const char *cmd, const char *list,
		       struct bench_k8s_opts *o, char *buf, size_t bufn)
{
	enum vol_type vt;
	char *t, *next;

	xsnprintf(buf, bufn, "%s", list);
	for (t = buf; t; t = next) {
		if ((next = strchr(t, ',')))
			*next++ = '\0';
		if (model_type_parse(t, &vt) || vt == VT_STANDARD)
			return msg_usage_error(
			    cmd,
			    "unknown volume type '%s' in --types (use gp2, gp3, io1, io2, st1 or sc1)",
			    t);
		if (o->ntypes == ARRAY_SIZE(o->types))
			return msg_usage_error(cmd,
					       "at most %zu types in --types",
					       ARRAY_SIZE(o->types));
		for (size_t i = 0; i < o->ntypes; i++)
			if (!strcmp(o->types[i], model_type_name(vt)))
				return msg_usage_error(
				    cmd,
				    "volume type '%s' given twice in --types",
				    t);
		o->types[o->ntypes++] = model_type_name(vt);
	}
	if (!o->ntypes)
		return msg_usage_error(
		    cmd, "--types needs at least one volume type");
	return EXIT_OK;
}

/* A DNS-1123 label, as Kubernetes names need. */
static int k8s_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-'))
			return 0;
	return 1;
}

/* An image reference or instance type: nothing YAML or sh would read
 * as syntax. */
static int k8s_word_ok(const char *s)
{
	if (!*s || strlen(s) > 200)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._:/@-", *s)))
			return 0;
	return 1;
}

static int k8s_check(struct cli_ctx *ctx, void *args)
{
	struct k8s_args *a = args;
	struct bench_k8s_opts *o = &a->o;
	const char *c_ = ctx->cmd_name;
	int rc;

	if (quantity_ok(o->size))
		return msg_usage_error(
		    c_,
		    "--size must be a quantity in Gi or Ti such as 100Gi, not '%s'",
		    o->size);
	if (!k8s_name_ok(o->namespace_))
		return msg_usage_error(
		    c_,
		    "--namespace must be a DNS label (a-z, 0-9, '-'), not '%s'",
		    o->namespace_);
	if (!k8s_word_ok(o->image))
		return msg_usage_error(
		    c_,
		    "--image must be an image reference (letters, digits, '._:/@-'), not '%s'",
		    o->image);
	if (o->instance && !k8s_word_ok(o->instance))
		return msg_usage_error(
		    c_,
		    "--instance must be an instance type such as m5.xlarge, not '%s'",
		    o->instance);
	if ((rc = parse_types(c_, a->types, o, a->typebuf, sizeof(a->typebuf))))
		return rc;
	for (size_t i = 0; i < o->ntypes; i++)
		if ((!strcmp(o->types[i], "io1") ||
		     !strcmp(o->types[i], "io2")) &&
		    !o->iops)
			return msg_usage_error(
			    c_, "--iops is required for %s volumes",
			    o->types[i]);
	return EXIT_OK;
}

static int cmd_bench_k8s(struct cli_ctx *ctx, void *args)
{
	struct k8s_args *a = args;
	struct bench_profile pr;
	char err[EBS_ERRLEN];
	char *text = NULL, *yaml = NULL;
	FILE *out;
	int rc;

	if (bench_load_profile(a->profile, &pr, &text, err))
		return msg_usage_error(ctx->cmd_name, "%s", err);
	rc = EXIT_RUNTIME;
	if (bench_k8s_manifests(&pr, &a->o, &yaml, err)) {
		msg_error("%s", err);
		goto out;
	}
	/* the manifests are a document, not a table: written as they are */
	if (!(out = cli_out(ctx, ctx->cmd_name, "Kubernetes manifests"))) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (fputs(yaml, out) == EOF) {
		cli_write_error(ctx);
		goto out;
	}
	rc = EXIT_OK;
out:
	free(text);
	free(yaml);
	return rc;
}

const struct cmd bench_k8s_def = {
	.name = "k8s",
	.run = cmd_bench_k8s,
	.args_size = sizeof(struct k8s_args),
	.summary =
	    "Kubernetes manifests running the same profile on EBS volumes",
	.description =
	    "Kubernetes manifests (a StorageClass, a PVC and a Job per volume type)\n"
	    "that run the same fio profile on EBS volumes, printed as YAML.",
	.opts = k8s_opts,
	.check = k8s_check,
};
