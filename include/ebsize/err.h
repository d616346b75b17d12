/*
 * err.h - error codes shared by every module.  Append only (like CURLE_*):
 * the numbers may appear in logs.  Functions that can fail return one of
 * these and write a human message into a caller-supplied buffer of
 * EBS_ERRLEN bytes; they never print.
 */
#ifndef EBSIZE_ERR_H
#define EBSIZE_ERR_H

#define EBS_ERRLEN 1024

enum ebs_err {
	EBS_OK = 0,
	EBS_ERR_USAGE = 1,	/* the caller asked for something malformed */
	EBS_ERR_IO = 2,		/* file system */
	EBS_ERR_PARSE = 3,	/* input could not be understood */
	EBS_ERR_DB = 4,		/* SQLite failure */
	EBS_ERR_ILLEGAL = 5,	/* configuration breaks an AWS rule */
	EBS_ERR_NOT_FOUND = 6,	/* no such region, instance, run, ... */
	EBS_ERR_TOO_BIG = 7,	/* input over a size cap */
	EBS_ERR_NETWORK = 8,	/* HTTP / transport */
	EBS_ERR_INFEASIBLE = 9, /* no configuration meets the request */
	EBS_ERR_SCHEMA = 10,	/* database from a newer or foreign schema */
	EBS_ERR_AUTH = 11,	/* missing or rejected credentials */
	EBS_ERR_SANITY = 12,	/* data failed a sanity check */
	EBS_ERR_EXEC = 13,	/* an external program failed */
	EBS_ERR_INTERRUPTED = 14
};

#endif
