// Pure mapping of npm payloads to rows: a packument to raw_npm_packages, a downloads point or range to
// raw_npm_downloads (pipeline/sql/raw/). A range becomes one row per day, a point one row for its period.
import type { RowMeta } from "../types.ts";
import { text, utc } from "../values.ts";
import { githubRepoOfNpm } from "./repository.ts";
import type { Packument, Point, Range } from "./schemas.ts";

export type NpmPackageRow = {
  run_date: string;
  package: string;
  repo_full_name: string | null;
  linked_repo: string | null;
  version: string | null;
  description: string | null;
  versions_total: number;
  created_at: string | null;
  modified_at: string | null;
  first_release_at: string | null;
  latest_release_at: string | null;
  version_published_at: string | null;
  dependencies: string[];
  deprecated: boolean;
  fetched_at: string;
};

export type NpmDownloadsRow = {
  run_date: string;
  package: string;
  start_date: string;
  end_date: string;
  downloads: number;
  fetched_at: string;
};

/** What toRows accepts: a packument matched to a tracked repository (or not), or a downloads answer. */
export type NpmPayload =
  | { kind: "packument"; packument: Packument; repo: string | null }
  | { kind: "point"; point: Point }
  | { kind: "range"; range: Range };

function timeOf(times: Record<string, unknown>, key: string): string | null {
  const value = times[key];
  return typeof value === "string" ? utc(value) : null;
}

export function packageRow(packument: Packument, repo: string | null, meta: RowMeta): NpmPackageRow {
  const versions = packument.versions ?? {};
  const times = packument.time ?? {};
  const latest = packument["dist-tags"]?.latest;
  const current = latest === undefined ? undefined : versions[latest];
  const published = Object.keys(versions)
    .flatMap((v) => timeOf(times, v) ?? [])
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  const deprecated = current?.deprecated;
  return {
    run_date: meta.runDate,
    package: packument.name,
    repo_full_name: repo,
    linked_repo: githubRepoOfNpm(packument.repository ?? current?.repository) ?? null,
    version: latest ?? null,
    description: text(packument.description),
    versions_total: Object.keys(versions).length,
    created_at: timeOf(times, "created"),
    modified_at: timeOf(times, "modified"),
    first_release_at: published[0] ?? null,
    latest_release_at: published[published.length - 1] ?? null,
    version_published_at: latest === undefined ? null : timeOf(times, latest),
    dependencies: Object.keys(current?.dependencies ?? {}).sort(),
    // npm un-deprecates by publishing deprecated: "", so only a non-empty message (or true) counts.
    deprecated: deprecated === true || (typeof deprecated === "string" && deprecated !== ""),
    fetched_at: meta.fetchedAt.toISOString(),
  };
}

export function pointRows(point: Point, meta: RowMeta): NpmDownloadsRow[] {
  return [
    {
      run_date: meta.runDate,
      package: point.package,
      start_date: point.start,
      end_date: point.end,
      downloads: point.downloads,
      fetched_at: meta.fetchedAt.toISOString(),
    },
  ];
}

export function rangeRows(range: Range, meta: RowMeta): NpmDownloadsRow[] {
  return range.downloads.map((d) => ({
    run_date: meta.runDate,
    package: range.package,
    start_date: d.day,
    end_date: d.day,
    downloads: d.downloads,
    fetched_at: meta.fetchedAt.toISOString(),
  }));
}

export function toRows(payload: NpmPayload, meta: RowMeta): (NpmPackageRow | NpmDownloadsRow)[] {
  switch (payload.kind) {
    case "packument":
      return [packageRow(payload.packument, payload.repo, meta)];
    case "point":
      return pointRows(payload.point, meta);
    case "range":
      return rangeRows(payload.range, meta);
  }
}
