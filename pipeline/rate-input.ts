// What `projintel rate` reads: JSON lines whose field names are the inputs the score reads (rateRowSchema), or a
// best-of-generator projects.csv (recognised by its header), mapped column by column onto those inputs. A line that
// cannot be rated is set aside with its number and reason, so the others are still rated.
import { z } from "zod";
import { AppError } from "../core/errors.ts";
import { parseCsv } from "./csv.ts";

const count = z.number().int().min(0).nullish();
const text = z.string().nullish();
// "2025-06-26", "2025-06-26T10:00:00Z" or best-of's "2025-06-26 10:00:00.000"
const time = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
    "must be a date or date-time",
  )
  .nullish();

/** One repository to rate: the inputs of the score and the classification; a field left out is unknown. */
export const rateRowSchema = z.strictObject({
  full_name: z
    .string()
    .regex(/^[^/\s]+\/[^/\s]+$/, "must be owner/name")
    .describe("owner/name (required)"),
  description: text.describe("the repository's description (classification; a documentation signal)"),
  homepage: text.describe("its homepage (a documentation signal)"),
  topics: z.array(z.string()).nullish().describe("GitHub topics (classification; a documentation signal)"),
  language: text.describe("main language (classification)"),
  license: text.describe("SPDX licence identifier"),
  archived: z.boolean().nullish().describe("archived on GitHub (no maintenance points); default false"),
  created_at: time.describe("repository creation (age)"),
  pushed_at: time.describe("last push (recency of the last commit when last_commit_at is unknown)"),
  last_commit_at: time.describe("last commit on the default branch"),
  stars: count.describe("stars"),
  forks: count.describe("forks"),
  watchers: count.describe("watchers"),
  open_issues: count.describe("open issues"),
  closed_issues: count.describe("closed issues"),
  merged_prs: count.describe("pull requests merged (unknown: scored from the known community inputs)"),
  contributors: count.describe("contributors (unknown: scored from the known community inputs)"),
  commits_90d: count.describe("commits on the default branch in the last 90 days"),
  commits_365d: count.describe(
    "commits in the last 365 days (steady work; unknown: from the known maintenance inputs)",
  ),
  releases_total: count.describe("GitHub releases"),
  latest_release_tag: text.describe("the latest release's tag (a stable 1.0+ version)"),
  latest_release_at: time.describe("the latest release's date"),
  issue_response_median_hours: z
    .number()
    .min(0)
    .nullish()
    .describe("median hours to a first issue response (unknown: from the known maintenance inputs)"),
  issues_sampled: count.describe("issues that median is over (it counts from 3)"),
  pypi_package: text.describe("PyPI package (classification)"),
  pypi_version: text.describe("latest PyPI version"),
  pypi_stable_releases: count.describe("PyPI releases that are not pre-releases"),
  pypi_prereleases: count.describe("PyPI pre-releases"),
  pypi_latest_release_at: time.describe("latest PyPI release"),
  pypi_downloads_monthly: count.describe("PyPI downloads of the last month"),
  npm_package: text.describe("npm package (classification)"),
  npm_version: text.describe("latest npm version"),
  npm_versions_total: count.describe("npm versions published"),
  npm_latest_release_at: time.describe("latest npm publish"),
  npm_downloads_monthly: count.describe("npm downloads of the last month"),
  hf_downloads_monthly: count.describe("Hugging Face Hub downloads of the last 30 days"),
  docker_pulls: count.describe("Docker Hub pulls, all time (spread over docker_pulls_unknown_months)"),
  registry_likes: count.describe("Hugging Face likes plus Docker Hub stars"),
  dependents: count.describe("packages or repositories depending on its packages"),
  dependencies: z.array(z.string()).nullish().describe("its packages' dependencies (classification)"),
});
export type RateRow = z.infer<typeof rateRowSchema>;

/** The fields of a rate input line, in the order docs/analytics.md's table lists them. */
export const RATE_FIELDS = Object.keys(rateRowSchema.shape) as (keyof RateRow)[];

/** A line set aside: its number in the file (1 = the first line) and why. */
export interface RateProblem {
  line: number;
  reason: string;
}

export interface RateInput {
  format: "jsonl" | "best-of-csv";
  rows: (RateRow & { line: number })[];
  problems: RateProblem[];
}

/**
 * best-of-generator's projects.csv column -> the rate input it feeds. The list's judgements (category, projectrank,
 * show) are never read: they are what a rating is checked against.
 */
export const BEST_OF_COLUMNS = {
  github_id: "full_name",
  description: "description",
  license: "license",
  created_at: "created_at",
  last_commit_pushed_at: "pushed_at",
  recent_commit_count: "commits_90d",
  star_count: "stars",
  fork_count: "forks",
  watchers_count: "watchers",
  contributor_count: "contributors",
  open_issue_count: "open_issues",
  closed_issue_count: "closed_issues",
  release_count: "releases_total",
  latest_stable_release_number: "latest_release_tag",
  latest_stable_release_published_at: "latest_release_at",
  pypi_id: "pypi_package",
  pypi_monthly_downloads: "pypi_downloads_monthly",
  npm_id: "npm_package",
  npm_monthly_downloads: "npm_downloads_monthly",
  dockerhub_pulls: "docker_pulls",
  dependent_project_count: "dependents",
} as const satisfies Record<string, keyof RateRow>;

/**
 * docs/analytics.md's table of rate inputs: each field, the best-of column that feeds it (— where none does: unknown when
 * rating a best-of list) and what the score reads it as.
 */
export function rateInputTable(): string {
  const fromBestOf = new Map<string, string>(
    Object.entries(BEST_OF_COLUMNS).map(([column, field]) => [field, column]),
  );
  const rows = Object.entries(rateRowSchema.shape).map(([field, schema]) => {
    const column = fromBestOf.get(field);
    return `| \`${field}\` | ${column ? `\`${column}\`` : "—"} | ${schema.description ?? ""} |`;
  });
  return ["| JSON field | best-of column | read as |", "|---|---|---|", ...rows].join("\n");
}

/** The columns a best-of header must have to be read as one. */
const BEST_OF_REQUIRED = ["github_id", "star_count"] as const;

function checked(value: unknown, line: number, problems: RateProblem[]): (RateRow & { line: number }) | null {
  if (typeof value === "object" && value !== null && !("full_name" in value)) {
    problems.push({ line, reason: "no full_name: the line names no repository" });
    return null;
  }
  const parsed = rateRowSchema.safeParse(value);
  if (parsed.success) return { ...parsed.data, line };
  const reason = parsed.error.issues.map((i) => `${i.path.join(".") || "line"} ${i.message}`).join("; ");
  problems.push({ line, reason });
  return null;
}

function parseJsonLines(input: string): RateInput {
  const rows: RateInput["rows"] = [];
  const problems: RateProblem[] = [];
  input.split("\n").forEach((raw, index) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ line: index + 1, reason: `invalid JSON (${(error as Error).message})` });
      return;
    }
    const row = checked(value, index + 1, problems);
    if (row) rows.push(row);
  });
  return { format: "jsonl", rows, problems };
}

/** A best-of figure: "5326.0" -> 5326; empty -> unknown; anything else is kept as text for the schema to refuse. */
function figure(cell: string): number | string | null {
  if (cell === "") return null;
  const n = Number(cell);
  return Number.isFinite(n) && Number.isInteger(n) ? n : cell;
}

function parseBestOf(records: { line: number; cells: string[] }[], header: string[]): RateInput {
  const rows: RateInput["rows"] = [];
  const problems: RateProblem[] = [];
  const at = new Map(header.map((name, i) => [name, i]));
  // the fields the schema takes as numbers; the others (names, texts, dates) keep the cell as written
  const numeric = new Set(
    Object.entries(rateRowSchema.shape).flatMap(([k, v]) => (v.safeParse(0).success ? [k] : [])),
  );
  for (const { line, cells } of records) {
    if (cells.length === 1 && cells[0] === "") continue;
    const value: Record<string, unknown> = {};
    for (const [column, field] of Object.entries(BEST_OF_COLUMNS)) {
      const i = at.get(column);
      const cell = i === undefined ? "" : (cells[i] ?? "").trim();
      if (cell === "") continue;
      value[field] = numeric.has(field) ? figure(cell) : cell;
    }
    if (value.full_name === undefined) {
      problems.push({ line, reason: "github_id is empty: the row names no repository" });
      continue;
    }
    const row = checked(value, line, problems);
    if (row) rows.push(row);
  }
  return { format: "best-of-csv", rows, problems };
}

/** Reads a rate input: JSON lines when the first line is an object, otherwise a best-of projects.csv. */
export function parseRateInput(raw: string, source = "input"): RateInput {
  // a spreadsheet's export may open with a byte-order mark
  const input = raw.replace(/^\uFEFF/, "");
  const first = input.trimStart();
  if (first === "") {
    throw new AppError(`${source} is empty: there is nothing to rate.`, {
      hint: "Pass a best-of projects.csv or JSON lines with at least full_name (see projintel rate --help).",
    });
  }
  if (first.startsWith("{")) return parseJsonLines(input);
  const [head, ...records] = parseCsv(input);
  const header = (head?.cells ?? []).map((h) => h.trim());
  const missing = BEST_OF_REQUIRED.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new AppError(
      `${source} is neither JSON lines nor a best-of projects.csv: its header lacks ${missing.join(", ")}.`,
      {
        hint: "Pass best-of-generator's projects.csv as exported, or JSON lines with full_name and the figures (see projintel rate --help).",
      },
    );
  }
  return parseBestOf(records, header);
}
