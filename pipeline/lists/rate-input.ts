// What `projintel rate` reads: JSON (lines, an array or one object) whose field names are the inputs the score reads
// (rateRowSchema) or best-of's, or a best-of-generator projects.csv (recognised by its header), mapped column by
// column onto those inputs. A line that cannot be rated is set aside with its number and reason; the others are rated.
import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import { parseCsv } from "./csv.ts";
import { type JsonRecord, splitJson } from "./rate-json.ts";

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
    .regex(/^[^/\s]+\/[^/\s]+$/, "must be owner/name or https://github.com/owner/name")
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
  all_downloads_monthly: count.describe(
    "downloads of the last month over every registry (best-of's total), read when no per-registry figure is known",
  ),
  conda_downloads: count.describe(
    "conda downloads, all time (a monthly estimate: spread over the months since created_at)",
  ),
  release_downloads: count.describe(
    "GitHub release-asset downloads, all time (a monthly estimate, as conda's): tools shipped as binaries",
  ),
  docker_pulls: count.describe("Docker Hub pulls, all time (spread over docker_pulls_unknown_months)"),
  registry_likes: count.describe("Hugging Face likes plus Docker Hub stars"),
  dependents: count.describe(
    "repositories and packages depending on it, as GitHub's dependency graph counts them (scored up to dependents_graph_cap)",
  ),
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

/** A date the file carries, the line it is on and the field or column holding it. */
export interface FileDate {
  day: string;
  line: number;
  field: string;
}

export interface RateInput {
  format: "jsonl" | "json" | "best-of-csv";
  rows: (RateRow & { line: number })[];
  problems: RateProblem[];
  /** The field names are best-of's (a projects.csv, or JSON keyed github_id, star_count, …). */
  best_of_names: boolean;
  /** The best-of columns the score reads that a projects.csv's header lacks (a dropped column). */
  absent_columns: string[];
  /** JSON keys no rating reads (a list's own judgements, a typo), sorted. */
  ignored: string[];
  /** The latest `updated_at` of any row (best-of's day of reading), which nothing else reads. */
  updated_at: FileDate | null;
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
  monthly_downloads: "all_downloads_monthly",
  conda_total_downloads: "conda_downloads",
  github_release_downloads: "release_downloads",
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

/** A field's name as a line may give it: its own, or the best-of column feeding it. */
const FIELD_OF = new Map<string, keyof RateRow>([
  ...Object.entries(BEST_OF_COLUMNS),
  ...RATE_FIELDS.map((f) => [f, f] as const),
]);
/** best-of's names that are not a field's own (github_id, star_count, …): a line using them is best-of's. */
const BEST_OF_ONLY = new Set(Object.keys(BEST_OF_COLUMNS).filter((c) => !(c in rateRowSchema.shape)));

const accepts = (field: keyof RateRow, value: unknown) => rateRowSchema.shape[field].safeParse(value).success;
const NUMERIC = new Set(RATE_FIELDS.filter((f) => accepts(f, 0)));
// counts are whole: a figure given with a fraction (an average, a spreadsheet's float) is rounded
const COUNTS = new Set(RATE_FIELDS.filter((f) => accepts(f, 0) && !accepts(f, 0.5)));
const BOOLEANS = new Set(RATE_FIELDS.filter((f) => accepts(f, true)));

/** https://github.com/owner/name (with .git, a trailing path, git@github.com:…) -> owner/name; other text as given. */
const GITHUB_URL =
  /^(?:(?:https?|git|ssh):\/\/(?:git@)?|git@)?(?:www\.)?github\.com[/:]([^/\s?#]+)\/([^/\s?#]+?)(?:\.git)?(?:[/?#].*)?$/i;

export function githubName(text: string): string {
  const m = GITHUB_URL.exec(text.trim());
  return m ? `${m[1]}/${m[2]}` : text.trim();
}

/** A field's value as the schema takes it: numbers and booleans given as text read, "" unknown. */
function coerce(field: keyof RateRow, value: unknown): unknown {
  if (typeof value === "string" && value.trim() === "") return null;
  if (field === "full_name" && typeof value === "string") return githubName(value);
  if (NUMERIC.has(field) && typeof value === "string" && Number.isFinite(Number(value.trim()))) {
    return coerce(field, Number(value.trim()));
  }
  if (COUNTS.has(field) && typeof value === "number" && !Number.isInteger(value)) return Math.round(value);
  if (BOOLEANS.has(field) && typeof value === "string" && /^(true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === "true";
  }
  return value;
}

function reasonOf(issue: z.core.$ZodIssue, value: Record<string, unknown>): string {
  const field = String(issue.path[0] ?? "line");
  const given = value[field];
  if (NUMERIC.has(field as keyof RateRow) && typeof given === "string") {
    return `${field} ${JSON.stringify(given)} is not a number`;
  }
  return `${issue.path.join(".") || "line"} ${issue.message}`;
}

interface Reading {
  rows: RateInput["rows"];
  problems: RateProblem[];
  ignored: Set<string>;
  bestOfNames: boolean;
  updatedAt: FileDate | null;
}

/** One object of the input (a JSON object, or a CSV row keyed by its header) read as a rate row, or set aside. */
function readRecord(record: Record<string, unknown>, line: number, into: Reading): void {
  const value: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(record)) {
    if (key === "updated_at" && typeof given === "string" && /^\d{4}-\d{2}-\d{2}/.test(given)) {
      const day = given.slice(0, 10);
      if (!into.updatedAt || day > into.updatedAt.day) into.updatedAt = { day, line, field: key };
      continue;
    }
    const field = FIELD_OF.get(key);
    if (!field) {
      into.ignored.add(key);
      continue;
    }
    if (BEST_OF_ONLY.has(key)) into.bestOfNames = true;
    // a line giving both names keeps the field's own
    if (key !== field && field in record) continue;
    const read = coerce(field, given);
    if (read !== null && read !== undefined) value[field] = read;
  }
  if (value.full_name === undefined) {
    const named = "github_id" in record ? "github_id is empty" : "no full_name";
    into.problems.push({ line, reason: `${named}: the line names no repository` });
    return;
  }
  if (typeof value.full_name === "string" && /^[a-z][a-z+.-]*:\/\/|^www\./i.test(value.full_name)) {
    into.problems.push({
      line,
      reason: `full_name ${value.full_name} is not a GitHub repository: give owner/name or https://github.com/owner/name`,
    });
    return;
  }
  const parsed = rateRowSchema.safeParse(value);
  if (parsed.success) into.rows.push({ ...parsed.data, line });
  else into.problems.push({ line, reason: parsed.error.issues.map((i) => reasonOf(i, value)).join("; ") });
}

function newReading(bestOfNames: boolean): Reading {
  return { rows: [], problems: [], ignored: new Set(), bestOfNames, updatedAt: null };
}

function readJson(records: JsonRecord[], into: Reading): void {
  for (const { line, value } of records) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      into.problems.push({ line, reason: "not a JSON object: give one object per repository" });
    } else readRecord(value as Record<string, unknown>, line, into);
  }
}

function readBestOf(records: { line: number; cells: string[] }[], header: string[], into: Reading): void {
  for (const { line, cells } of records) {
    if (cells.length === 1 && cells[0] === "") continue;
    const record: Record<string, unknown> = {};
    header.forEach((column, i) => {
      // the export's own columns only; its unnamed index column and the columns nothing reads are left out
      if (column !== "" && (FIELD_OF.has(column) || column === "updated_at")) record[column] = cells[i] ?? "";
    });
    readRecord(record, line, into);
  }
}

/** Reads a rate input: JSON when it opens with `{` or `[`, otherwise a best-of projects.csv. */
export function parseRateInput(raw: string, source = "input"): RateInput {
  // a spreadsheet's export may open with a byte-order mark
  const input = raw.replace(/^\uFEFF/, "");
  const first = input.trimStart();
  if (first === "") {
    throw new AppError(`${source} is empty: there is nothing to rate.`, {
      hint: "Pass a best-of projects.csv or JSON lines with at least full_name (see projintel rate --help).",
    });
  }
  let format: RateInput["format"];
  let absent: string[] = [];
  let reading: Reading;
  if (first.startsWith("{") || first.startsWith("[")) {
    const json = splitJson(input, source);
    format = json.format;
    reading = newReading(false);
    reading.problems.push(...json.problems);
    readJson(json.records, reading);
  } else {
    const [head, ...records] = parseCsv(input);
    const header = (head?.cells ?? []).map((h) => h.trim());
    const missing = BEST_OF_REQUIRED.filter((c) => !header.includes(c));
    if (missing.length > 0) {
      throw new AppError(
        `${source} is neither JSON nor a best-of projects.csv: its header lacks ${missing.join(", ")}.`,
        {
          hint: "Pass best-of-generator's projects.csv as exported, or JSON lines with full_name and the figures (see projintel rate --help).",
        },
      );
    }
    format = "best-of-csv";
    absent = Object.keys(BEST_OF_COLUMNS).filter((c) => !header.includes(c));
    reading = newReading(true);
    readBestOf(records, header, reading);
  }
  if (reading.rows.length === 0 && reading.problems.length === 0) {
    throw new AppError(`${source} holds no rows: there is nothing to rate.`, {
      hint: "Add a line for each repository (at least its full_name, or github_id in a best-of projects.csv).",
    });
  }
  reading.problems.sort((a, b) => a.line - b.line);
  return {
    format,
    rows: reading.rows,
    problems: reading.problems,
    best_of_names: reading.bestOfNames,
    absent_columns: absent,
    ignored: [...reading.ignored].sort(),
    updated_at: reading.updatedAt,
  };
}

/** A repository listed more than once: the lines naming it, and whether their figures differ. */
export interface Duplicate {
  full_name: string;
  lines: number[];
  differ: boolean;
}

/** The rows with each repository once (GitHub names are case-insensitive), from the first line naming it. */
export function distinctRows<T extends RateRow & { line: number }>(
  rows: readonly T[],
): { rows: T[]; duplicates: Duplicate[] } {
  const first = new Map<string, { row: T; duplicate: Duplicate }>();
  for (const row of rows) {
    const key = row.full_name.toLowerCase();
    const seen = first.get(key);
    if (!seen) {
      first.set(key, { row, duplicate: { full_name: row.full_name, lines: [row.line], differ: false } });
      continue;
    }
    const { line: _a, ...kept } = seen.row;
    const { line: _b, ...again } = row;
    seen.duplicate.lines.push(row.line);
    if (JSON.stringify(kept) !== JSON.stringify(again)) seen.duplicate.differ = true;
  }
  const entries = [...first.values()];
  return {
    rows: entries.map((e) => e.row),
    duplicates: entries.map((e) => e.duplicate).filter((d) => d.lines.length > 1),
  };
}
