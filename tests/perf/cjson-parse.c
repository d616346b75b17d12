/* cjson-parse.c - benchmark baseline: read a file and cJSON_Parse it whole
 * (what a non-streaming tool does), then count Volumes[].  Built by
 * bench-scan.py with pkg-config libcjson. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	long n;
	char *buf;
	cJSON *doc;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return 2;
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		return 2;
	buf[n] = '\0';
	doc = cJSON_Parse(buf);
	if (!doc)
		return 1;
	printf("%d volumes\n", cJSON_GetArraySize(cJSON_GetObjectItem(doc, "Volumes")));
	cJSON_Delete(doc);
	free(buf);
	fclose(f);
	return 0;
}
