// The slice index format and the two operations the shim's hot path runs on it.
import { describe, expect, it } from "vitest";
import {
  decodeSliceIndex,
  encodeSliceIndex,
  recordParts,
  type SliceIndex,
  selectSlice,
} from "./slice-index.ts";

// Five records scoring 90, 80, 80, 55, 10 in canonical order; "a" holds 0, 2, 4 and "b" holds 1, 3.
const records = Buffer.from('[{"n":0},{"n":1},{"n":2},{"n":3},{"n":4}]');
const index: SliceIndex = {
  count: 5,
  offsets: Uint32Array.from([1, 9, 17, 25, 33, 41]),
  scores: Uint8Array.from([90, 80, 80, 55, 10]),
  subcategories: new Map([
    ["b", Uint32Array.from([1, 3])],
    ["a", Uint32Array.from([0, 2, 4])],
  ]),
};

const page = (ordinals: number[]) => `[${Buffer.concat(recordParts(records, index, ordinals)).toString()}]`;
const all = { minScore: 0, maxScore: 100, limit: 50, offset: 0 };

describe("slice index encoding", () => {
  it("round-trips offsets, scores and subcategories", () => {
    const decoded = decodeSliceIndex(encodeSliceIndex(index));
    expect(decoded.count).toBe(5);
    expect([...decoded.offsets]).toEqual([1, 9, 17, 25, 33, 41]);
    expect([...decoded.scores]).toEqual([90, 80, 80, 55, 10]);
    expect([...decoded.subcategories.keys()]).toEqual(["a", "b"]);
    expect([...(decoded.subcategories.get("a") ?? [])]).toEqual([0, 2, 4]);
  });

  it("reads an index that does not start on a 4-byte boundary", () => {
    const bytes = encodeSliceIndex(index);
    const shifted = Buffer.alloc(bytes.length + 1);
    bytes.copy(shifted, 1);
    expect([...decodeSliceIndex(shifted.subarray(1)).offsets]).toEqual([1, 9, 17, 25, 33, 41]);
  });

  it("encodes an empty domain", () => {
    const empty = decodeSliceIndex(
      encodeSliceIndex({
        count: 0,
        offsets: Uint32Array.from([2]),
        scores: new Uint8Array(),
        subcategories: new Map(),
      }),
    );
    expect(empty.count).toBe(0);
    expect(selectSlice(empty, all)).toEqual({ total: 0, ordinals: [] });
  });

  it("refuses bytes that are not an index", () => {
    expect(() => decodeSliceIndex(Buffer.from("[]"), "mcp/index.bin")).toThrow(
      "Cannot read mcp/index.bin: not a slice index (bad magic).",
    );
  });
});

describe("selectSlice", () => {
  it("pages through everything", () => {
    expect(selectSlice(index, { ...all, limit: 2 })).toEqual({ total: 5, ordinals: [0, 1] });
    expect(selectSlice(index, { ...all, limit: 2, offset: 4 })).toEqual({ total: 5, ordinals: [4] });
    expect(selectSlice(index, { ...all, offset: 9 })).toEqual({ total: 5, ordinals: [] });
  });

  it("cuts by score bounds, inclusive", () => {
    expect(selectSlice(index, { ...all, minScore: 80 })).toEqual({ total: 3, ordinals: [0, 1, 2] });
    expect(selectSlice(index, { ...all, minScore: 40, maxScore: 80 })).toEqual({
      total: 3,
      ordinals: [1, 2, 3],
    });
    expect(selectSlice(index, { ...all, minScore: 91 })).toEqual({ total: 0, ordinals: [] });
  });

  it("filters by subcategory, then by score", () => {
    expect(selectSlice(index, { ...all, subcategory: "a" })).toEqual({ total: 3, ordinals: [0, 2, 4] });
    expect(selectSlice(index, { ...all, subcategory: "a", maxScore: 85, offset: 1 })).toEqual({
      total: 2,
      ordinals: [4],
    });
    expect(selectSlice(index, { ...all, subcategory: "zzz" })).toEqual({ total: 0, ordinals: [] });
  });
});

describe("recordParts", () => {
  it("joins any ordinals with commas", () => {
    expect(page([0, 1, 2, 3, 4])).toBe('[{"n":0},{"n":1},{"n":2},{"n":3},{"n":4}]');
    expect(page([1, 3])).toBe('[{"n":1},{"n":3}]');
    expect(page([0, 2, 3, 4])).toBe('[{"n":0},{"n":2},{"n":3},{"n":4}]');
    expect(page([4])).toBe('[{"n":4}]');
    expect(page([])).toBe("[]");
  });

  it("hands out a consecutive run as one view into the records, not a copy", () => {
    const parts = recordParts(records, index, [1, 2, 3]);
    expect(parts).toHaveLength(1);
    expect(parts[0]?.buffer).toBe(records.buffer);
  });
});
