/*
 * instances_parse.c - `aws ec2 describe-instance-types` JSON (one or more
 * pages back to back) to struct instance_limits, from
 * InstanceTypes[].EbsInfo.EbsOptimizedInfo (formats.md 4).  Entries
 * without that block (t3.micro in the 2020 capture, unsupported types)
 * are counted, not fatal.  Go SDK dumps carry null for unset members and
 * JS SDK v3 adds "$metadata": both are tolerated.  No I/O, no SQLite.
 */
#include "ebsize/instances_parse.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/util.h"

void instance_list_release(struct instance_list *il)
{
	if (!il)
		return;
	free(il->v);
	memset(il, 0, sizeof(*il));
}

/*
 * Sanity caps (not AWS figures): orders of magnitude above any published
 * instance limit, and low enough that IOPS convert to the integer column
 * they are stored in without undefined behaviour.
 */
#define CAP_BANDWIDTH 1e7 /* Mbps and MB/s */
#define CAP_IOPS      1e9

static const struct {
	const char *key;
	size_t off;
	double cap;
} fields[] = {
	{ "BaselineBandwidthInMbps",
	  offsetof(struct instance_limits, baseline_mbps), CAP_BANDWIDTH },
	{ "MaximumBandwidthInMbps", offsetof(struct instance_limits, max_mbps),
	  CAP_BANDWIDTH },
	{ "BaselineThroughputInMBps",
	  offsetof(struct instance_limits, baseline_mbytes_per_s),
	  CAP_BANDWIDTH },
	{ "MaximumThroughputInMBps",
	  offsetof(struct instance_limits, max_mbytes_per_s), CAP_BANDWIDTH },
	{ "BaselineIops", offsetof(struct instance_limits, baseline_iops),
	  CAP_IOPS },
	{ "MaximumIops", offsetof(struct instance_limits, max_iops), CAP_IOPS },
};

/*
 * The optional EbsInfo members beside the limits: EbsOptimizedSupport,
 * MaximumEbsAttachments (a small positive count, else ignored) and
 * NvmeSupport (one of the API's three words, else ignored).
 */
static void read_ebs_extras(const cJSON *ebs, struct instance_limits *il)
{
	const cJSON *sup =
	    cJSON_GetObjectItemCaseSensitive(ebs, "EbsOptimizedSupport");
	const cJSON *att =
	    cJSON_GetObjectItemCaseSensitive(ebs, "MaximumEbsAttachments");
	const cJSON *nvme =
	    cJSON_GetObjectItemCaseSensitive(ebs, "NvmeSupport");

	if (cJSON_IsString(sup) && !strcmp(sup->valuestring, "supported"))
		il->ebs_optimized = EBS_OPT_SUPPORTED;
	if (cJSON_IsNumber(att) && att->valuedouble >= 1 &&
	    att->valuedouble <= 1000 &&
	    att->valuedouble == floor(att->valuedouble))
		il->max_ebs_attachments = (long)att->valuedouble;
	if (cJSON_IsString(nvme) && (!strcmp(nvme->valuestring, "required") ||
				     !strcmp(nvme->valuestring, "supported") ||
				     !strcmp(nvme->valuestring, "unsupported")))
		xsnprintf(il->nvme, sizeof(il->nvme), "%s", nvme->valuestring);
}

/* One InstanceTypes[] entry; *skipped set when it has no limits. */
static int read_entry(const cJSON *e, const char *name, size_t idx,
		      const char *source, const char *as_of,
		      struct instance_limits *il, int *skipped, char *err)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "InstanceType");
	const cJSON *ebs = cJSON_GetObjectItemCaseSensitive(e, "EbsInfo");
	const cJSON *info =
	    cJSON_GetObjectItemCaseSensitive(ebs, "EbsOptimizedInfo");

	*skipped = 0;
	if (!cJSON_IsString(type) || !*type->valuestring ||
	    strlen(type->valuestring) >= sizeof(il->instance_type))
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': InstanceTypes entry %zu: no \"InstanceType\"",
		    name, idx);
	memset(il, 0, sizeof(*il));
	xsnprintf(il->instance_type, sizeof(il->instance_type), "%s",
		  type->valuestring);
	if (!cJSON_IsObject(info)) {
		*skipped = 1;
		return EBS_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const cJSON *v =
		    cJSON_GetObjectItemCaseSensitive(info, fields[i].key);

		if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
		    v->valuedouble < 0)
			return ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': '%s': expected a non-negative number for \"%s\"",
			    name, il->instance_type, fields[i].key);
		if (v->valuedouble > fields[i].cap)
			return ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': '%s': \"%s\" is %.15g, above the sanity cap of %.15g",
			    name, il->instance_type, fields[i].key,
			    v->valuedouble, fields[i].cap);
		*(double *)((char *)il + fields[i].off) = v->valuedouble;
	}
	il->burst = il->baseline_mbps < il->max_mbps ||
		    il->baseline_iops < il->max_iops;
	read_ebs_extras(ebs, il);
	xsnprintf(il->source, sizeof(il->source), "%s", source);
	xsnprintf(il->as_of, sizeof(il->as_of), "%s", as_of);
	return EBS_OK;
}

static int read_doc(const cJSON *doc, const char *name, const char *source,
		    const char *as_of, struct instance_list *out, char *err)
{
	const cJSON *list =
	    cJSON_GetObjectItemCaseSensitive(doc, "InstanceTypes");
	const cJSON *e;
	size_t idx = 0;
	int rc, skipped;

	if (!cJSON_IsArray(list))
		return ebs_fail(err, EBS_ERR_PARSE,
				"cannot parse '%s': no \"InstanceTypes\" array",
				name);
	cJSON_ArrayForEach(e, list)
	{
		struct instance_limits il;

		if ((rc = read_entry(e, name, ++idx, source, as_of, &il,
				     &skipped, err)))
			return rc;
		if (skipped) {
			if (!out->skipped++)
				xsnprintf(out->first_skipped,
					  sizeof(out->first_skipped), "%s",
					  il.instance_type);
			continue;
		}
		xgrow((void **)&out->v, &out->alloc, out->n + 1,
		      sizeof(*out->v));
		out->v[out->n++] = il;
	}
	return EBS_OK;
}

int instances_parse(const char *buf, size_t len, const char *name,
		    const char *source, const char *as_of,
		    struct instance_list *out, char *err)
{
	const char *p = buf, *end = buf + len;
	int rc = EBS_OK;

	while (p < end && *p && strchr(" \t\r\n", *p))
		p++;
	if (p == end)
		return ebs_fail(err, EBS_ERR_PARSE, "cannot parse '%s': empty",
				name);
	while (p < end && !rc) {
		const char *stop = NULL;
		cJSON *doc =
		    cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, 0);

		if (!doc) {
			const char *at = cJSON_GetErrorPtr();
			size_t off = at && at >= buf && at <= end
					 ? (size_t)(at - buf)
					 : 0;

			return ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': line %zu: not valid JSON", name,
			    line_of_offset(buf, off));
		}
		rc = read_doc(doc, name, source, as_of, out, err);
		cJSON_Delete(doc);
		p = stop;
		while (p < end && *p && strchr(" \t\r\n", *p))
			p++;
	}
	return rc;
}
