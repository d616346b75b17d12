#!/usr/bin/python3
"""offer_gen.py - GENERATED AmazonEC2 bulk offer files of realistic shape.

    offer_gen.py REGION BYTES [VERSION [PUBLISHED]] > index.json

Also imported by tests/lib/bulk_server.py, which serves these files on
the fly (never writing them to disk), and by tests/perf/.

The layout is AWS's bulk offer file (formats.md 2, as in the opencost
excerpt in tests/fixtures): AWS's own pretty-printing ("key" : value,
empty containers written [ ] and { }), products first, then
terms.OnDemand (<SKU> -> <SKU>.<termCode> -> priceDimensions), then
terms.Reserved, then attributesList.  Most of the bytes are GENERATED
filler: EC2 compute-instance products with on-demand and reserved
terms (made-up SKUs, attributes and prices, which ebsize must skip).  The
EBS products are the 14 volume SKUs of tests/lib/pricing_server.py, with
the values of ebs-facts.md T6 for us-east-1, us-west-2 and eu-west-1,
spread through the file, plus an EBS snapshot product and a Local Zone
gp3 product (both counted, not stored).  The China regions quote CNY:
their values are GENERATED (T6 us-east-1 x 6.64, the ratio of the real
cn-northwest-1 gp3 price 0.5312 CNY in tests/fixtures to 0.08 USD) and
are not AWS prices.

Generation is deterministic: the same arguments give the same bytes, so a
server can answer Range requests by generating again and skipping.
"""
import hashlib
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import pricing_server as ps  # noqa: E402

DISCLAIMER = ("GENERATED test data for ebsize - not an AWS price list. "
              "Layout after the AWS bulk Price List offer file.")

CN = {
    "cn-north-1": ("CNN1-", "China (Beijing)"),
    "cn-northwest-1": ("CNW1-", "China (Ningxia)"),
}

INSTANCE_TYPES = ["m5.large", "m5.xlarge", "c5.2xlarge", "r6i.4xlarge",
                  "t3.medium", "m6g.large", "i3en.xlarge", "x2idn.16xlarge"]
OSES = ["Linux", "Windows", "RHEL", "SUSE"]


def region_info(region):
    """(prefix, location, price row, currency) for region."""
    if region in ps.T6:
        prefix, loc, prices = ps.T6[region]
        return prefix, loc, prices, "USD"
    if region in CN:
        prefix, loc = CN[region]
        return prefix, loc, [round(p * 6.64, 6) for p in ps.T6["us-east-1"][2]], "CNY"
    # any other region: us-east-1's values (GENERATED) under a made-up prefix
    prefix = region.upper().replace("-", "")[:4] + "-"
    return prefix, "Generated (" + region + ")", ps.T6["us-east-1"][2], "USD"


def q(s):
    return '"' + s + '"'


def obj(pairs, ind):
    """AWS-style pretty object from (key, rendered value) pairs."""
    if not pairs:
        return "{ }"
    pad = " " * (ind + 2)
    body = ",\n".join(pad + q(k) + " : " + v for k, v in pairs)
    return "{\n" + body + "\n" + " " * ind + "}"


def product(sku, family, attrs, ind):
    return obj([("sku", q(sku)), ("productFamily", q(family)),
                ("attributes", obj([(k, q(v)) for k, v in attrs], ind + 2))], ind)


def term(sku, code, rate, unit, cur, price, desc, eff, attrs, ind):
    dim = obj([("rateCode", q(sku + "." + code + "." + rate)), ("description", q(desc)),
               ("beginRange", q("0")), ("endRange", q("Inf")), ("unit", q(unit)),
               ("pricePerUnit", obj([(cur, q(price))], ind + 8)),
               ("appliesTo", "[ ]")], ind + 6)
    return obj([("offerTermCode", q(code)), ("sku", q(sku)), ("effectiveDate", q(eff)),
                ("priceDimensions", obj([(sku + "." + code + "." + rate, dim)], ind + 4)),
                ("termAttributes", obj([(k, q(v)) for k, v in attrs], ind + 4))], ind + 2)


def filler_product(sku, j, prefix, loc, region):
    it = INSTANCE_TYPES[j % len(INSTANCE_TYPES)]
    os_ = OSES[j % len(OSES)]
    attrs = [("servicecode", "AmazonEC2"), ("location", loc), ("locationType", "AWS Region"),
             ("instanceType", it), ("currentGeneration", "Yes"),
             ("instanceFamily", "General purpose"), ("vcpu", str(2 << (j % 5))),
             ("physicalProcessor", "Generated Processor"), ("clockSpeed", "3.1 GHz"),
             ("memory", "%d GiB" % (8 << (j % 5))), ("storage", "EBS only"),
             ("networkPerformance", "Up to 10 Gigabit"), ("processorArchitecture", "64-bit"),
             ("tenancy", "Shared"), ("operatingSystem", os_), ("licenseModel", "No License required"),
             ("usagetype", prefix + "BoxUsage:" + it), ("operation", "RunInstances:%04d" % (j % 10)),
             ("availabilityzone", "NA"), ("capacitystatus", "Used"),
             ("classicnetworkingsupport", "false"), ("dedicatedEbsThroughput", "Up to 4750 Mbps"),
             ("ecu", "NA"), ("enhancedNetworkingSupported", "Yes"), ("gpuMemory", "NA"),
             ("intelAvxAvailable", "Yes"), ("intelAvx2Available", "Yes"),
             ("intelTurboAvailable", "Yes"), ("marketoption", "OnDemand"),
             ("normalizationSizeFactor", "4"), ("preInstalledSw", "NA"),
             ("processorFeatures", "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo"),
             ("regionCode", region), ("servicename", "Amazon Elastic Compute Cloud"),
             ("vpcnetworkingsupport", "true")]
    return product(sku, "Compute Instance", attrs, 4)


def filler_terms(sku, j, cur):
    price = "%.10f" % (0.01 + (j % 97) * 0.0137)
    od = term(sku, "JRTCKXETXF", "6YS6EN2CT7", "Hrs", cur, price,
              "GENERATED $%s per On Demand instance hour" % price, "2026-09-01T00:00:00Z", [], 4)
    res = []
    for code, lease, opt in (("4NA7Y494T4", "1yr", "No Upfront"),
                             ("6QCMYABX3D", "1yr", "All Upfront"),
                             ("BPH4J8HBKS", "3yr", "No Upfront")):
        res.append((sku + "." + code, term(sku, code, "6YS6EN2CT7", "Hrs", cur, price,
                                           "GENERATED reserved rate", "2026-09-01T00:00:00Z",
                                           [("LeaseContractLength", lease),
                                            ("OfferingClass", "standard"),
                                            ("PurchaseOption", opt)], 6)))
    return od, res


def gen_sku(region, key):
    """A 16-character SKU, unique per (region, key), marked G... (generated)."""
    h = hashlib.sha1((region + "/" + key).encode()).hexdigest().upper()
    return "G" + h[:15]


def ebs_products(region, version, scale, other_region=None):
    """[(sku, product text, on-demand term text)] for the region's EBS SKUs."""
    prefix, loc, prices, cur = region_info(other_region or region)
    code_region = other_region or region
    out = []
    for fam, api, suffix, unit, col, group, key in ps.SKUS:
        price = prices[col]
        if unit == "IOs":
            price = price / 1e6
        price *= scale.get(region + "/" + key, 1.0)
        sku = gen_sku(code_region, key)
        attrs = [("servicecode", "AmazonEC2"), ("location", loc), ("locationType", "AWS Region"),
                 ("usagetype", prefix + suffix), ("operation", ""), ("regionCode", code_region),
                 ("servicename", "Amazon Elastic Compute Cloud"), ("volumeApiName", api)]
        if group:
            attrs.append(("group", group))
        desc = "GENERATED %s %s price - %s" % (api, key, loc)
        out.append((sku, product(sku, fam, attrs, 4),
                    term(sku, "JRTCKXETXF", "6YS6EN2CT7", unit, cur, "%.10f" % price, desc,
                         "2026-09-01T00:00:00Z", [], 4)))
    # an EBS snapshot product and a Local Zone volume: read, not stored
    snap = gen_sku(code_region, "snapshot")
    out.append((snap, product(snap, "Storage Snapshot",
                              [("servicecode", "AmazonEC2"), ("location", loc),
                               ("locationType", "AWS Region"), ("usagetype", prefix + "EBS:SnapshotUsage"),
                               ("regionCode", code_region)], 4),
                term(snap, "JRTCKXETXF", "6YS6EN2CT7", "GB-Mo", cur, "0.0500000000",
                     "GENERATED snapshot storage", "2026-09-01T00:00:00Z", [], 4)))
    lz = gen_sku(code_region, "localzone-gp3")
    out.append((lz, product(lz, "Storage",
                            [("servicecode", "AmazonEC2"), ("location", loc + " Local Zone"),
                             ("locationType", "AWS Local Zone"),
                             ("usagetype", prefix + "LAX1-EBS:VolumeUsage.gp3"),
                             ("volumeApiName", "gp3")], 4),
                term(lz, "JRTCKXETXF", "6YS6EN2CT7", "GB-Mo", cur, "0.0960000000",
                     "GENERATED Local Zone gp3", "2026-09-01T00:00:00Z", [], 4)))
    return out


BLOCK = 256                       # filler SKUs per block
MARK = "@@@@@@"                   # block number placeholder in SKUs


def blocks(region):
    """Templates (products, on-demand, reserved) of one filler block."""
    prefix, loc, _, cur = region_info(region)
    prods, ods, ress = [], [], []
    for j in range(BLOCK):
        sku = "F" + MARK + "%04dZQXK" % j + "A"
        sku = sku[:16]
        prods.append("    " + q(sku) + " : " + filler_product(sku, j, prefix, loc, region))
        od, res = filler_terms(sku, j, cur)
        ods.append("      " + q(sku) + " : " + obj([(sku + ".JRTCKXETXF", od)], 6))
        ress.append("      " + q(sku) + " : " + obj(res, 6))
    return [",\n".join(x).encode() for x in (prods, ods, ress)]


def chunks(region, size, version="20260918212757", published="2026-09-18T21:27:57Z",
           scale=None, other_region=None, offer_code="AmazonEC2"):
    """Yield the file as byte chunks (about size bytes in all)."""
    scale = scale or {}
    tpl = blocks(region)
    per_block = sum(len(t) + 2 for t in tpl)
    nblocks = max(1, size // per_block)
    ebs = ebs_products(region, version, scale, other_region)
    # the EBS SKUs go between filler blocks, spread through the file
    at = {(k * nblocks) // len(ebs): [] for k in range(len(ebs))}
    for k, e in enumerate(ebs):
        at[(k * nblocks) // len(ebs)].append(e)

    def block(kind, b):
        return tpl[kind].replace(MARK.encode(), b"%06d" % b)

    yield ("{\n  \"formatVersion\" : \"v1.0\",\n  \"disclaimer\" : \"%s\",\n"
           "  \"offerCode\" : \"%s\",\n  \"version\" : \"%s\",\n"
           "  \"publicationDate\" : \"%s\",\n  \"products\" : {\n"
           % (DISCLAIMER, offer_code, version, published)).encode()
    for b in range(nblocks):
        out = [block(0, b)]
        for sku, prod, _ in at.get(b, []):
            out.append(("    " + q(sku) + " : " + prod).encode())
        yield (b",\n" if b else b"") + b",\n".join(out)
    yield b"\n  },\n  \"terms\" : {\n    \"OnDemand\" : {\n"
    for b in range(nblocks):
        out = [block(1, b)]
        for sku, _, od in at.get(nblocks - 1 - b, []):
            out.append(("      " + q(sku) + " : " + obj([(sku + ".JRTCKXETXF", od)], 6)).encode())
        yield (b",\n" if b else b"") + b",\n".join(out)
    yield b"\n    },\n    \"Reserved\" : {\n"
    for b in range(nblocks):
        yield (b",\n" if b else b"") + block(2, b)
    yield b"\n    }\n  },\n  \"attributesList\" : { }\n}\n"


def total_size(*args, **kw):
    return sum(len(c) for c in chunks(*args, **kw))


def main():
    region, size = sys.argv[1], int(sys.argv[2])
    version = sys.argv[3] if len(sys.argv) > 3 else "20260918212757"
    published = sys.argv[4] if len(sys.argv) > 4 else "2026-09-18T21:27:57Z"
    out = sys.stdout.buffer
    for c in chunks(region, size, version, published):
        out.write(c)


if __name__ == "__main__":
    main()
