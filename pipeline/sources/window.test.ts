// inOrder keeps results in input order with a bounded number in flight; chunk slices evenly.
import { describe, expect, it } from "vitest";
import { chunk, inOrder } from "./window.ts";

describe("inOrder", () => {
  it("yields in input order with at most `width` running", async () => {
    let running = 0;
    let most = 0;
    const delays = [30, 5, 20, 1, 10, 2];
    const out: number[] = [];
    for await (const value of inOrder(delays, 3, async (ms, i) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return i;
    })) {
      out.push(value);
    }
    expect(out).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(3);
  });

  it("surfaces a failure when its turn comes", async () => {
    const seen: number[] = [];
    const run = async () => {
      for await (const v of inOrder([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error("two failed");
        return n;
      })) {
        seen.push(v);
      }
    };
    await expect(run()).rejects.toThrow("two failed");
    expect(seen).toEqual([1]);
  });
});

describe("chunk", () => {
  it("slices into runs of at most `size`", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 100)).toEqual([]);
  });
});
