/*
 * xmlcheck.h - a small well-formedness check for the XML the SVG writer
 * and the report produce, written apart from them so the tests do not
 * trust the code they test: balanced tags, quoted attributes, only known
 * entities, no raw '<' or '&' in text, one root element.
 */
#ifndef EBSIZE_XMLCHECK_H
#define EBSIZE_XMLCHECK_H

#include <stddef.h>

/* 0 when s is well-formed; else -1 with the reason and offset in why. */
int xml_check(const char *s, char *why, size_t n);

#endif
