// decimal(): the X-RateLimit-Remaining text made without V8's number-to-string cache must read as String(n) does.
import { describe, expect, it } from "vitest";
import { decimal } from "./caller.ts";

describe("decimal", () => {
  it("writes every count as String does, across each boundary of its three-digit pieces", () => {
    const counts = [0, 7, 10, 99, 100, 999, 1000, 1001, 1010, 1100, 9999, 10_000, 99_999, 100_000, 999_999];
    counts.push(1_000_000, 1_000_001, 1_001_000, 10_203_040, 123_456_789, 999_999_999, 1e9, 1e9 + 1, 2 ** 40);
    for (const n of counts) expect(decimal(n)).toBe(String(n));
    for (let n = 999_000; n < 1_002_000; n += 7) expect(decimal(n)).toBe(String(n));
  });

  it("leaves what is not a count to String", () => {
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(decimal(n)).toBe(String(n));
  });
});
