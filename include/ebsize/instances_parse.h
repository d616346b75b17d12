/*
 * instances_parse.h - `aws ec2 describe-instance-types` output to struct
 * instance_limits (src/instances_parse.c, cJSON).  No I/O, no database.
 */
#ifndef EBSIZE_INSTANCES_PARSE_H
#define EBSIZE_INSTANCES_PARSE_H

#include <stddef.h>

#include "ebsize/model.h"

struct instance_list {
	struct instance_limits *v;
	size_t n, alloc;
	size_t skipped; /* entries without EbsInfo.EbsOptimizedInfo */
	char first_skipped[48];
};

void instance_list_release(struct instance_list *il);

/*
 * Parse buf ({"InstanceTypes": [...]}, possibly several pages back to
 * back) into out; entries lacking EbsOptimizedInfo are counted in skipped.
 * source and as_of are copied into every entry.  EBS_OK or EBS_ERR_PARSE
 * (message names name and the entry).
 */
int instances_parse(const char *buf, size_t len, const char *name,
		    const char *source, const char *as_of,
		    struct instance_list *out, char *err);

#endif
