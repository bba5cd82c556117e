// Picking records from a collection index: filters, rank ranges both ways, name search order, paging, and the
// bytes of non-adjacent and out-of-order records joined into valid JSON; the index survives encode → decode.
import { describe, expect, it } from "vitest";
import { type CollectionIndex, decodeCollectionIndex, encodeCollectionIndex } from "./collection-index.ts";
import { recordBytes, recordParts, selectRecords } from "./select.ts";

const NAMES = ["acme/lang", "lang/tools", "acme/langchain", "zeta/lang", "foo/golang", "bar/other"];
const RANKS = [90, 80, 80, 60, 40, 10];

function build(): { records: Buffer; index: CollectionIndex } {
  const chunks = NAMES.map((n, i) => JSON.stringify({ full_name: n, score: RANKS[i] }));
  const records = Buffer.from(`[${chunks.join(",")}]`);
  const offsets = new Uint32Array(NAMES.length + 1);
  let at = 1;
  chunks.forEach((c, i) => {
    offsets[i] = at;
    at += c.length + 1;
  });
  offsets[NAMES.length] = records.length;
  const index: CollectionIndex = {
    count: NAMES.length,
    offsets,
    filters: new Map([
      [
        "owner",
        new Map([
          ["acme", Uint32Array.from([0, 2])],
          ["lang", Uint32Array.from([1])],
        ]),
      ],
      ["even", new Map([["yes", Uint32Array.from([0, 2, 4])]])],
    ]),
    rank: Int32Array.from(RANKS),
    rankOrder: "desc",
    keys: new Map([
      ["acme--lang", 0],
      ["=lang", 0],
    ]),
    search: NAMES,
  };
  return { records, index: decodeCollectionIndex(encodeCollectionIndex(index)) };
}

const { records, index } = build();
const names = (ordinals: number[]) => ordinals.map((o) => NAMES[o]);
const select = (s: Partial<Parameters<typeof selectRecords>[1]>) =>
  selectRecords(index, { filters: [], limit: 50, offset: 0, ...s });

describe("selectRecords", () => {
  it("keeps every part of the index through encode and decode", () => {
    expect(index.count).toBe(6);
    expect([...(index.rank ?? [])]).toEqual(RANKS);
    expect(index.keys?.get("=lang")).toBe(0);
    expect(index.search).toEqual(NAMES);
    expect([...(index.filters.get("owner")?.get("acme") ?? [])]).toEqual([0, 2]);
  });

  it("intersects filters and pages the result", () => {
    expect(select({ filters: [["owner", "acme"]] })).toEqual({ total: 2, ordinals: [0, 2] });
    expect(
      select({
        filters: [
          ["owner", "acme"],
          ["even", "yes"],
        ],
        offset: 1,
        limit: 1,
      }),
    ).toEqual({
      total: 2,
      ordinals: [2],
    });
    expect(select({ filters: [["owner", "nobody"]] })).toEqual({ total: 0, ordinals: [] });
  });

  it("bounds a descending rank from both sides, inclusively", () => {
    expect(select({ range: { min: 40, max: 80 } })).toEqual({ total: 4, ordinals: [1, 2, 3, 4] });
    expect(select({ range: { min: 81 } }).ordinals).toEqual([0]);
    expect(select({ range: { min: 95 } })).toEqual({ total: 0, ordinals: [] });
  });

  it("bounds an ascending rank (ages in days, newest first)", () => {
    const ages: CollectionIndex = { ...index, rank: Int32Array.from([0, 0, 2, 5, 6, 30]), rankOrder: "asc" };
    expect(selectRecords(ages, { filters: [], range: { max: 5 }, limit: 50, offset: 0 })).toEqual({
      total: 4,
      ordinals: [0, 1, 2, 3],
    });
    expect(selectRecords(ages, { filters: [], range: { min: 1, max: 6 }, limit: 2, offset: 1 })).toEqual({
      total: 3,
      ordinals: [3, 4],
    });
  });

  it("ranks name search: exact names, then prefixes, then substrings, each in canonical order", () => {
    expect(names(select({ search: "LANG" }).ordinals)).toEqual([
      "acme/lang", // the repository name
      "zeta/lang",
      "lang/tools", // the owner's prefix
      "acme/langchain", // the name's prefix
      "foo/golang", // a substring
    ]);
    expect(select({ search: "lang", offset: 3, limit: 1 })).toEqual({ total: 5, ordinals: [2] });
    expect(names(select({ search: "lang", filters: [["owner", "acme"]] }).ordinals)).toEqual([
      "acme/lang",
      "acme/langchain",
    ]);
  });

  it("joins the chosen records' bytes into valid JSON whatever their order", () => {
    for (const ordinals of [[0, 1], [1, 3, 5], [5, 0], [4, 5, 2], [5]]) {
      const json = `[${Buffer.concat(recordParts(records, index, ordinals)).toString()}]`;
      expect((JSON.parse(json) as { full_name: string }[]).map((r) => r.full_name)).toEqual(names(ordinals));
    }
    expect(JSON.parse(recordBytes(records, index, 5).toString())).toEqual({
      full_name: "bar/other",
      score: 10,
    });
  });
});
