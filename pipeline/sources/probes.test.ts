import { describe, expect, it } from "vitest";
import { probePlan, REPROBE_DAYS } from "./probes.ts";
import type { CollectContext, History, Row } from "./types.ts";

/** A context whose history holds the given latest rows per table; nothing else is used by probePlan. */
function contextOn(runDate: string, tables: Record<string, Row[]>): CollectContext {
  const history: History = { latest: async (table) => tables[table] ?? [] };
  return { runDate, history } as unknown as CollectContext;
}

const day = (offset: number) => new Date(Date.UTC(2026, 10, 1 + offset)).toISOString().slice(0, 10);
const misses = Array.from({ length: 50 }, (_, i) => `miss-${i}`);

describe("probePlan", () => {
  it("looks every name up on the first night", async () => {
    const plan = await probePlan(contextOn(day(0), {}), "raw_pypi_projects", "package");
    expect(misses.every((name) => plan.due(name, [{ full_name: "old/repo", full_refresh: false }]))).toBe(
      true,
    );
  });

  it("looks every name up for a source with no rows yet, though GitHub has history (a new or skipped source)", async () => {
    const tables = { raw_github_repos: [{ full_name: "old/repo" }] };
    const old = { full_name: "old/repo", full_refresh: false };
    for (let d = 0; d < REPROBE_DAYS; d++) {
      const plan = await probePlan(contextOn(day(d), tables), "raw_pypi_projects", "package");
      expect(misses.filter((name) => plan.due(name, [old]))).toHaveLength(misses.length);
    }
  });

  it("asks found names with their repository's full refresh, a new repository's names at once, each miss weekly", async () => {
    const tables = {
      raw_github_repos: [{ full_name: "Old/Repo" }, { full_name: "old/found" }],
      raw_pypi_projects: [{ package: "Found" }],
    };
    const nights = await Promise.all(
      Array.from({ length: REPROBE_DAYS }, (_, d) =>
        probePlan(contextOn(day(d), tables), "raw_pypi_projects", "package"),
      ),
    );
    const old = { full_name: "old/repo", full_refresh: false };
    // Found before (compared case-insensitively): on the nights GitHub refreshes its repository in full
    // (tiered by stars), and not on the others (scoring reads the package's latest row).
    expect(nights.map((plan) => plan.due("found", [{ full_name: "old/found", full_refresh: true }]))).toEqual(
      Array(REPROBE_DAYS).fill(true),
    );
    expect(
      nights.map((plan) => plan.due("found", [{ full_name: "old/found", full_refresh: false }])),
    ).toEqual(Array(REPROBE_DAYS).fill(false));
    // A repository with no earlier row (new, or renamed to this name): every candidate at once.
    expect(nights.map((plan) => plan.due("miss-0", [{ full_name: "new/repo", full_refresh: true }]))).toEqual(
      Array(REPROBE_DAYS).fill(true),
    );
    // A miss of a known repository: exactly one night in any REPROBE_DAYS consecutive nights.
    for (const name of misses) {
      expect(nights.filter((plan) => plan.due(name, [old]))).toHaveLength(1);
    }
    // ...and the re-probes are spread over the week, not bunched on one night.
    const perNight = nights.map(
      (plan) => misses.filter((name) => plan.due(name, [{ ...old, full_name: "OLD/REPO" }])).length,
    );
    expect(perNight.reduce((a, b) => a + b, 0)).toBe(misses.length);
    expect(Math.max(...perNight)).toBeLessThan(misses.length / 2);
  });
});
