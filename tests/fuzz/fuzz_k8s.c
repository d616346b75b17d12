/*
 * fuzz_k8s.c - libFuzzer harness for inventory_parse_k8s() (kubectl PV,
 * PVC, StorageClass and VolumeAttributesClass JSON) and the Kubernetes
 * rules that read its result (scan_k8s.c): the index, each PV's
 * configuration and plan with the texts it prints, and the cluster
 * findings.  Pure: bytes in, everything released.  Not part of `make
 * test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/inventory.h"
#include "ebsize/scan_k8s.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every text of one PV's plan (built and freed: ASan checks them). */
static void one_pv(const struct scan_k8s *c, const struct inv_pv *pv)
{
	static const struct volume_limits lim[VT_COUNT];
	struct scan_finding f = { 0 };
	struct scan_k8s_plan p;
	char why[160];

	f.cat = SCAN_GP2_TO_GP3;
	f.cur = (struct vol_config){ VT_GP2, pv->size_gib, 0, 0, 1, 0 };
	(void)scan_k8s_pv_config(c, lim, pv, &f.cur, why, sizeof(why));
	f.prop = (struct vol_config){ VT_GP3, pv->size_gib, 3000, 125, 1, 0 };
	scan_k8s_plan(c, pv, &f, &p);
	free(scan_k8s_vac_manifest(c, &p, &f.prop));
	free(scan_k8s_vac_create(c, &p, &f.prop));
	free(scan_k8s_patch(&p, pv->ns, pv->pvc));
	free(scan_k8s_verify(&p, pv->ns, pv->pvc));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inv_k8s k;
	struct inv_warnings w;
	struct scan_k8s c;
	struct scan_cluster_finding *cl;
	char err[EBS_ERRLEN];
	size_t n;

	memset(&k, 0, sizeof(k));
	memset(&w, 0, sizeof(w));
	(void)inventory_parse_k8s("fuzz.json", (const char *)data, size, &k, &w, err);
	scan_k8s_init(&c, &k);
	for (size_t i = 0; i < k.npv; i++)
		one_pv(&c, &k.pv[i]);
	scan_k8s_cluster(&c, "us-east-1", NULL, &cl, &n);
	scan_cluster_findings_free(cl, n);
	scan_k8s_release(&c);
	inv_k8s_release(&k);
	inv_warnings_release(&w);
	return 0;
}
