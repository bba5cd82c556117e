// arXiv: both recorded feed formats map to exact rows; the empty feed gives none; the error feed is an
// error (and its HTTP 400 a fail decision); ids are found and normalised; the XML reader's edge cases.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyResponse } from "../../collect/http-decision.ts";
import { readFeed } from "./feed.ts";
import { arxivIdsIn, normalizeArxivId } from "./ids.ts";
import { toRows } from "./rows.ts";
import { decodeEntities, parseXml } from "./xml.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/arxiv");
const xml = (file: string) => readFileSync(path.join(REAL, `query-id_list-${file}.xml`), "utf8");
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

function rowsOf(file: string, reposById: Record<string, string[]> = {}) {
  const reading = readFeed(xml(file));
  if (reading.kind !== "feed") throw new Error(`expected a feed, got ${reading.kind}`);
  return toRows({ feed: reading.feed, reposById }, meta);
}

describe("arxiv feeds", () => {
  it("maps the 2022 format (typed title, opensearch declared per element, wrapped summary)", () => {
    expect(rowsOf("2101.05225.2022-01", { "2101.05225": ["rohanalexander/inconsistency"] })).toEqual([
      {
        run_date: "2026-03-01",
        arxiv_id: "2101.05225",
        version: 1,
        repo_full_names: ["rohanalexander/inconsistency"],
        title: "On consistency scores in text data with an implementation in R",
        summary:
          "In this paper, we introduce a reproducible cleaning process for the text extracted from PDFs using n-gram models. Our approach compares the originally extracted text with the text generated from, or expected by, these models using earlier text as stimulus. To guide this process, we introduce the notion of a consistency score, which refers to the proportion of text that is expected by the model. This is used to monitor changes during the cleaning process, and across different corpuses. We illustrate our process on text from the book Jane Eyre and introduce both a Shiny application and an R package to make our process easier for others to adopt.",
        authors: ["Ke-Li Chiu", "Rohan Alexander"],
        published_at: "2021-01-13T17:37:07Z",
        updated_at: "2021-01-13T17:37:07Z",
        primary_category: "cs.CL",
        categories: ["cs.CL"],
        abs_url: "http://arxiv.org/abs/2101.05225v1",
        pdf_url: "http://arxiv.org/pdf/2101.05225v1",
        doi: null,
        comment: "13 pages, 0 figures",
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
  });

  it("maps the 2026 backend format (https links, namespaces on the root, two categories)", () => {
    expect(rowsOf("1605.08386.new-backend.2026-04")).toEqual([
      {
        run_date: "2026-03-01",
        arxiv_id: "1605.08386",
        version: 1,
        repo_full_names: [],
        title: "Heat-bath random walks with Markov bases",
        summary:
          "Graphs on lattice points are studied whose edges come from a finite set of allowed moves of arbitrary length. We show that the diameter of these graphs on fibers of a fixed integer matrix can be bounded from above by a constant. We then study the mixing behaviour of heat-bath random walks on these graphs. We also state explicit conditions on the set of moves so that the heat-bath random walk, a generalization of the Glauber dynamics, is an expander in fixed dimension.",
        authors: ["Caprice Stanley", "Tobias Windisch"],
        published_at: "2016-05-26T17:59:46Z",
        updated_at: "2016-05-26T17:59:46Z",
        primary_category: "math.CO",
        categories: ["math.CO", "math.ST"],
        abs_url: "https://arxiv.org/abs/1605.08386v1",
        pdf_url: "https://arxiv.org/pdf/1605.08386v1",
        doi: null,
        comment: "20 pages, 3 figures",
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
  });

  it("gives no rows for the empty feed (totalResults 0)", () => {
    expect(readFeed(xml("0000.0000.empty.2026-04"))).toEqual({
      kind: "feed",
      feed: { totalResults: 0, entries: [] },
    });
    expect(rowsOf("0000.0000.empty.2026-04")).toEqual([]);
  });

  it("reads the error feed as an error, and its HTTP 400 is a fail decision", () => {
    expect(readFeed(xml("abc.error-400.2026-04"))).toEqual({
      kind: "error",
      message: "incorrect id format for abc",
      id: "https://arxiv.org/api/errors#incorrect_id_format_for_abc",
    });
    expect(
      classifyResponse(400, { "content-type": "application/atom+xml" }, xml("abc.error-400.2026-04"))
        .decision,
    ).toBe("fail");
  });

  it("reports an entry without a published date by its path", () => {
    const broken = xml("2101.05225.2022-01").replace(/<published>.*<\/published>/, "");
    const reading = readFeed(broken);
    expect(reading.kind).toBe("invalid");
    if (reading.kind === "invalid")
      expect(reading.error.issues[0]?.path).toEqual(["entries", 0, "published"]);
  });

  it("reads a document that is not an Atom feed, or not XML, as invalid with the reason", () => {
    const html = readFeed("<html><body>busy</body></html>");
    expect(html.kind === "invalid" && html.error.issues[0]?.message).toBe(
      "expected an Atom <feed>, got <html>",
    );
    const truncated = readFeed("<feed xmlns='http://www.w3.org/2005/Atom'><entry>");
    expect(truncated.kind === "invalid" && truncated.error.issues[0]?.message).toBe(
      "Truncated XML: the root element is not closed.",
    );
  });
});

describe("arxiv ids", () => {
  it.each([
    ["2101.05225v1", "2101.05225"],
    ["1605.08386", "1605.08386"],
    ["2412.123456", undefined],
    ["hep-th/9901001v2", "hep-th/9901001"],
    ["math.CO/0601001", "math.CO/0601001"],
    ["abc", undefined],
  ])("%s → %s", (id, expected) => {
    expect(normalizeArxivId(id)).toBe(expected);
  });

  it("finds ids in links and mentions", () => {
    expect(
      arxivIdsIn(
        "Code for https://arxiv.org/abs/2112.10752v2 (see arXiv:1810.04805 and arxiv.org/pdf/2202.00512.pdf)",
      ),
    ).toEqual(["1810.04805", "2112.10752", "2202.00512"]);
    expect(arxivIdsIn(null)).toEqual([]);
  });
});

describe("xml reader", () => {
  it("decodes entities, CDATA and resolves prefixes by namespace", () => {
    const root = parseXml(
      `<?xml version="1.0"?><!-- c --><a xmlns="urn:x" xmlns:p="urn:p"><p:b t='1 &amp; 2'>x &lt;y&gt; &#233;&#x41;</p:b><c><![CDATA[<raw>]]></c></a>`,
    );
    expect(root).toMatchObject({ ns: "urn:x", local: "a" });
    expect(root.children[0]).toMatchObject({
      ns: "urn:p",
      local: "b",
      attrs: { t: "1 & 2" },
      text: "x <y> éA",
    });
    expect(root.children[1]?.text).toBe("<raw>");
    expect(decodeEntities("&unknown; &quot;&apos;")).toBe(`&unknown; "'`);
  });

  it.each([
    ["<a><b></a>", "Unexpected </a>"],
    ["<a>", "Truncated XML"],
    ["<a/><b/>", "A second root element"],
    ["<a <b>", "Malformed XML"],
  ])("rejects %s", (source, message) => {
    expect(() => parseXml(source)).toThrow(message);
  });
});
