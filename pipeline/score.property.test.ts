// Property tests of the score SQL: for any feat_repos rows (NULLs, zeros, huge counts, past and future dates)
// every component is an integer 0–25, they add up to quality_score, the tier fits it, and each explanation's
// points add up to its component.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../core/db.ts";
import { CONSTANTS } from "./methodology.ts";
import { EXPLANATION_INPUTS } from "./methodology-doc.ts";
import { type FeatRow, loadFeatRepos, runScoreSql, setScoreVariables } from "./testdata/score-harness.ts";

const RUN_DATE = "2026-11-20";
const COMPONENTS = ["maintenance", "adoption", "maturity", "community"] as const;

const count = (max: number) =>
  fc.oneof(
    fc.constant(0),
    fc.integer({ min: 0, max: 100 }),
    fc.integer({ min: 0, max }),
    fc.constant(max),
    fc.integer({ min: -5, max: -1 }),
  );
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });
const date = fc.date({ min: new Date("1990-01-01"), max: new Date("2040-12-31"), noInvalidDate: true });
const INT_MAX = 2_147_483_647;
const version = fc.oneof(
  fc.constantFrom("1.0.0", "v2.1.0", "0.9.1", "2.0.0rc1", "3.0-beta", "release-2024.01", "v0", ""),
  fc.string({ maxLength: 8 }),
);
const text = nullable(fc.oneof(fc.constant(""), fc.string({ maxLength: 12 })));

const featRow: fc.Arbitrary<Omit<FeatRow, "node_id">> = fc.record({
  description: text,
  homepage: text,
  license: nullable(fc.constantFrom("MIT", "Apache-2.0", "")),
  topics: nullable(fc.array(fc.constantFrom("rag", "llm"), { maxLength: 2 })),
  stars: nullable(count(INT_MAX)),
  forks: nullable(count(INT_MAX)),
  watchers: nullable(count(INT_MAX)),
  open_issues: nullable(count(INT_MAX)),
  closed_issues: nullable(count(INT_MAX)),
  merged_prs: nullable(count(INT_MAX)),
  created_at: nullable(date),
  pushed_at: nullable(date),
  last_commit_at: nullable(date),
  is_archived: nullable(fc.boolean()),
  commits_90d: nullable(count(INT_MAX)),
  commits_365d: nullable(count(INT_MAX)),
  releases_total: nullable(count(INT_MAX)),
  latest_release_tag: nullable(version),
  latest_release_at: nullable(date),
  contributors: nullable(count(INT_MAX)),
  commit_weeks: nullable(fc.array(nullable(count(5000)), { minLength: 0, maxLength: 52 })),
  issue_response_median_hours: nullable(
    fc.oneof(
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      fc.constantFrom(0, Number.NaN, Number.POSITIVE_INFINITY),
    ),
  ),
  issues_sampled: nullable(count(INT_MAX)),
  pypi_version: nullable(version),
  pypi_stable_releases: nullable(count(INT_MAX)),
  pypi_prereleases: nullable(count(INT_MAX)),
  pypi_latest_release_at: nullable(date),
  npm_version: nullable(version),
  npm_versions_total: nullable(count(INT_MAX)),
  npm_latest_release_at: nullable(date),
  docker_pulls: nullable(fc.bigInt({ min: 0n, max: 10n ** 18n })),
  docker_pulls_monthly: nullable(fc.bigInt({ min: 0n, max: 10n ** 18n })),
  registry_likes: nullable(fc.bigInt({ min: 0n, max: 10n ** 18n })),
  downloads_monthly: nullable(fc.bigInt({ min: 0n, max: 10n ** 18n })),
  dependents: nullable(count(INT_MAX)),
  graph_dependents: nullable(count(INT_MAX)),
  packages: nullable(count(50)),
});

interface Scored {
  node_id: string;
  maintenance_score: number;
  adoption_score: number;
  maturity_score: number;
  community_score: number;
  quality_score: number;
  quality_tier: string;
  explanation: string;
}

interface Explained {
  points: number;
  max_points: number;
  inputs: { name: string; points: number }[];
}

const maxOf = (component: keyof typeof EXPLANATION_INPUTS, input: string) => {
  const constant = EXPLANATION_INPUTS[component].find(([name]) => name === input)?.[1];
  return CONSTANTS.find((c) => c.name === constant)?.value ?? -1;
};

function tierOf(score: number): string {
  if (score >= 80) return "verified";
  if (score >= 60) return "established";
  if (score >= 40) return "emerging";
  return "experimental";
}

describe("score SQL properties", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb(":memory:");
    await setScoreVariables(db, RUN_DATE);
  });
  afterAll(() => db.close());

  it("keeps every component in 0–25, sums them, tiers the sum and explains every point", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(featRow, { minLength: 1, maxLength: 8 }), async (generated) => {
        const rows = generated.map((r, i) => ({
          node_id: `R_${i}`,
          full_name: `o/r${i}`,
          owner: "o",
          name: `r${i}`,
          slug: `o--r${i}`,
          is_stale: false,
          ...r,
        }));
        await loadFeatRepos(db, rows);
        await runScoreSql(db);
        const scored = await db.all<Scored>(
          `SELECT q.node_id, q.maintenance_score, q.adoption_score, q.maturity_score, q.community_score,
                  q.quality_score, q.quality_tier, e.explanation
           FROM score_quality q JOIN score_explanations e USING (node_id) ORDER BY q.node_id`,
        );
        expect(scored).toHaveLength(rows.length);
        for (const s of scored) {
          const parts = COMPONENTS.map((c) => s[`${c}_score`]);
          for (const p of parts) {
            expect(Number.isInteger(p) && p >= 0 && p <= 25, `${s.node_id}: ${p}`).toBe(true);
          }
          expect(parts.reduce((a, b) => a + b, 0)).toBe(s.quality_score);
          expect(s.quality_tier).toBe(tierOf(s.quality_score));
          const explanation = JSON.parse(s.explanation) as Record<string, Explained>;
          for (const c of COMPONENTS) {
            const e = explanation[c] as Explained;
            expect(e.points).toBe(s[`${c}_score`]);
            expect(e.max_points).toBe(25);
            expect(e.inputs.reduce((a, i) => a + i.points, 0)).toBe(e.points);
            expect(e.inputs.map((i) => i.name)).toEqual(EXPLANATION_INPUTS[c].map(([name]) => name));
            for (const i of e.inputs) {
              const max = maxOf(c, i.name);
              expect(Number.isInteger(i.points) && i.points >= 0 && i.points <= max, i.name).toBe(true);
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
