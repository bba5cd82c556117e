// The {data, meta} envelope: list payloads carry total and next_offset, single items count 1.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { itemEnvelope, listEnvelope } from "./envelope.ts";

const item = z.strictObject({ id: z.int() });
const list = listEnvelope(item);
const single = itemEnvelope(item);
const meta = {
  timestamp: "2025-03-21T06:00:00+00:00",
  count: 2,
  query: { domain: "mcp", limit: 2, offset: 0 },
  total: 5,
  next_offset: 2,
};

describe("list envelope", () => {
  it("accepts a page and the last page", () => {
    expect(list.parse({ data: [{ id: 1 }, { id: 2 }], meta })).toEqual({
      data: [{ id: 1 }, { id: 2 }],
      meta,
    });
    const last = { data: [{ id: 5 }], meta: { ...meta, count: 1, next_offset: null } };
    expect(list.safeParse(last).success).toBe(true);
  });

  it("accepts Z and numeric offsets but not a time without offset", () => {
    for (const timestamp of ["2025-03-21T06:00:00Z", "2025-03-21T08:00:00.123+02:00"]) {
      expect(list.safeParse({ data: [{ id: 1 }, { id: 2 }], meta: { ...meta, timestamp } }).success).toBe(
        true,
      );
    }
    const local = { data: [{ id: 1 }, { id: 2 }], meta: { ...meta, timestamp: "2025-03-21T06:00:00" } };
    expect(list.safeParse(local).success).toBe(false);
  });

  it("requires count to equal the number of items and total to cover it", () => {
    const wrongCount = list.safeParse({ data: [{ id: 1 }], meta });
    expect(wrongCount.error?.issues.map((i) => i.message)).toEqual(["meta.count must equal data.length"]);
    const lowTotal = list.safeParse({ data: [{ id: 1 }, { id: 2 }], meta: { ...meta, total: 1 } });
    expect(lowTotal.error?.issues.map((i) => i.message)).toEqual(["meta.total is below meta.count"]);
  });

  it("requires total and next_offset and refuses unknown meta fields", () => {
    const { total: _total, ...noTotal } = meta;
    expect(list.safeParse({ data: [{ id: 1 }, { id: 2 }], meta: noTotal }).success).toBe(false);
    expect(list.safeParse({ data: [{ id: 1 }, { id: 2 }], meta: { ...meta, page: 1 } }).success).toBe(false);
  });

  it("checks the echoed query against a given schema", () => {
    const typed = listEnvelope(item, z.strictObject({ limit: z.int() }));
    const page = { data: [{ id: 1 }, { id: 2 }], meta: { ...meta, query: { limit: 2 } } };
    expect(typed.safeParse(page).success).toBe(true);
    expect(typed.safeParse({ ...page, meta: { ...meta, query: { limit: "2" } } }).success).toBe(false);
  });
});

describe("item envelope", () => {
  const body = {
    data: { id: 7 },
    meta: { timestamp: "2025-03-21T06:00:00Z", count: 1, query: { slug: "a" } },
  };

  it("accepts one object with count 1", () => {
    expect(single.parse(body)).toEqual(body);
  });

  it("rejects count 0, list-only meta and an array payload", () => {
    expect(single.safeParse({ ...body, meta: { ...body.meta, count: 0 } }).success).toBe(false);
    expect(single.safeParse({ ...body, meta: { ...body.meta, total: 1 } }).success).toBe(false);
    expect(single.safeParse({ ...body, data: [{ id: 7 }] }).success).toBe(false);
  });
});
