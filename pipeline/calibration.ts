// The calibration set (data/calibration/profiles.json): project archetypes with the figures the score reads and
// the tier a knowledgeable user would give each. Turned into feat_repos rows here, dated back from a run date, so
// the calibration test scores them through the same score_*.sql files as a night does.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { addDays } from "../core/clock.ts";
import { qualityTierSchema } from "../schemas/enums.ts";

export const CALIBRATION_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "data",
  "calibration",
  "profiles.json",
);

const count = z.int().min(0);
const days = z.int().min(0).describe("days before the run date");
const DOCS = ["description", "homepage", "topics"] as const;

const githubSchema = z.strictObject({
  stars: count,
  forks: count,
  watchers: count,
  open_issues: count,
  closed_issues: count,
  merged_prs: count,
  contributors: count.nullable().describe("null: not fetched yet (unknown)"),
  age_days: days,
  days_since_commit: days,
  commits_90d: count,
  commits_365d: count,
  active_weeks_52w: z.int().min(0).max(52).nullable().describe("null: no REST weekly series (estimated)"),
  issue_response_median_hours: z.number().min(0).nullable(),
  issues_sampled: count,
  releases_total: count,
  latest_release_tag: z.string().nullable(),
  days_since_release: days.nullable(),
  license: z.string().nullable(),
  docs: z.array(z.enum(DOCS)),
  archived: z.boolean(),
});

const registriesSchema = z.strictObject({
  pypi: z
    .strictObject({
      version: z.string(),
      stable_releases: count,
      prereleases: count,
      days_since_release: days,
    })
    .optional(),
  npm: z.strictObject({ version: z.string(), versions_total: count, days_since_release: days }).optional(),
  downloads_monthly: count.describe("PyPI + npm + Hugging Face Hub downloads of the last month"),
  docker_pulls_monthly: count,
  registry_likes: count,
  dependents: count,
});

const profileSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  archetype: z.string().min(1),
  tier: qualityTierSchema,
  score: z.tuple([z.int(), z.int()]).optional().describe("expected quality_score range, inclusive"),
  why: z.string().min(1),
  github: githubSchema,
  registries: registriesSchema,
});

export type CalibrationProfile = z.infer<typeof profileSchema>;

/** The profiles of data/calibration/profiles.json, checked. */
export function readCalibration(file = CALIBRATION_FILE): CalibrationProfile[] {
  const parsed = z.array(profileSchema).safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    throw new Error(
      `${file} holds an invalid profile: ${parsed.error.message} Fix the profile named in the path.`,
    );
  }
  return parsed.data;
}

/** One feat_repos row (column to value) for a profile, its dates counted back from `runDate`. */
export function calibrationRow(p: CalibrationProfile, runDate: string): Record<string, unknown> {
  const ago = (n: number | null | undefined) => (n == null ? null : addDays(new Date(runDate), -n));
  const g = p.github;
  const r = p.registries;
  const weeks = g.active_weeks_52w;
  return {
    node_id: p.id,
    full_name: `calibration/${p.id}`,
    owner: "calibration",
    name: p.id,
    slug: `calibration--${p.id}`,
    description: g.docs.includes("description") ? p.archetype : null,
    homepage: g.docs.includes("homepage") ? "https://example.org" : null,
    topics: g.docs.includes("topics") ? ["ai"] : [],
    license: g.license,
    stars: g.stars,
    forks: g.forks,
    watchers: g.watchers,
    open_issues: g.open_issues,
    closed_issues: g.closed_issues,
    merged_prs: g.merged_prs,
    contributors: g.contributors,
    created_at: ago(g.age_days),
    pushed_at: ago(g.days_since_commit),
    last_commit_at: ago(g.days_since_commit),
    is_archived: g.archived,
    commits_90d: g.commits_90d,
    commits_365d: g.commits_365d,
    // the weeks with a commit are the latest ones: what the score reads is how many
    commit_weeks: weeks === null ? null : Array.from({ length: 52 }, (_, i) => (i >= 52 - weeks ? 1 : 0)),
    issue_response_median_hours: g.issue_response_median_hours,
    issues_sampled: g.issues_sampled,
    releases_total: g.releases_total,
    latest_release_tag: g.latest_release_tag,
    latest_release_at: ago(g.days_since_release),
    pypi_version: r.pypi?.version ?? null,
    pypi_stable_releases: r.pypi?.stable_releases ?? 0,
    pypi_prereleases: r.pypi?.prereleases ?? 0,
    pypi_latest_release_at: ago(r.pypi?.days_since_release),
    npm_version: r.npm?.version ?? null,
    npm_versions_total: r.npm?.versions_total ?? 0,
    npm_latest_release_at: ago(r.npm?.days_since_release),
    downloads_monthly: r.downloads_monthly,
    docker_pulls_monthly: r.docker_pulls_monthly,
    registry_likes: r.registry_likes,
    dependents: r.dependents,
    is_stale: false,
  };
}
