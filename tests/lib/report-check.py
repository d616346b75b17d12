#!/usr/bin/python3
# report-check.py - read what `ebsize report` wrote, with Python's own
# parsers (not ebsize's), for the e2e tests.
#
#   report-check.py table DIR/index.html FIGURE-ID
#       the data table under the chart FIGURE-ID, one row per line, cells
#       separated by tabs (header first)
#   report-check.py svgs DIR
#       parse every DIR/*.svg with xml.etree; print "NAME ok" when the root
#       is <svg> with a <title> and a <desc> that are not empty, else
#       "NAME bad: why"; then one line "texts:" + every text node, for
#       searching
#   report-check.py elements FILE.svg
#       every element name and attribute name in the file, one per line
import glob
import html.parser
import os
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


class Tables(html.parser.HTMLParser):
    def __init__(self, want):
        super().__init__(convert_charrefs=True)
        self.want, self.depth, self.rows, self.cell = want, 0, [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            self.depth = 1 if a.get("id") == self.want else 0
        if not self.depth:
            return
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if self.depth and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell)
            self.cell = None
        if tag == "figure":
            self.depth = 0

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def main():
    what = sys.argv[1]
    if what == "table":
        p = Tables(sys.argv[3])
        with open(sys.argv[2], encoding="utf-8") as f:
            p.feed(f.read())
        for r in p.rows:
            print("\t".join(r))
    elif what == "svgs":
        texts = []
        for path in sorted(glob.glob(os.path.join(sys.argv[2], "*.svg"))):
            name = os.path.basename(path)
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError as e:
                print(name, "bad:", e)
                continue
            title, desc = root.find(SVG + "title"), root.find(SVG + "desc")
            if root.tag != SVG + "svg":
                print(name, "bad: root is", root.tag)
            elif title is None or not (title.text or "").strip():
                print(name, "bad: no <title>")
            elif desc is None or not (desc.text or "").strip():
                print(name, "bad: no <desc>")
            else:
                print(name, "ok")
            texts += [t for t in root.itertext() if t.strip()]
            for el in root.iter():
                texts += [v for k, v in el.attrib.items() if k.startswith("data-series")]
        print("texts:", "\x1f".join(texts))
    elif what == "elements":
        for el in ET.parse(sys.argv[2]).getroot().iter():
            print(el.tag.replace(SVG, ""))
            for k in el.attrib:
                print("@" + k)


main()
