// Pure mapping of a parsed PyPI project to a raw_pypi_projects row (pipeline/sql/raw/raw_pypi_projects.sql).
// A release counts when it has at least one file that is not yanked; its time is its first such upload.
import type { RowMeta } from "../types.ts";
import { text, utc } from "../values.ts";
import { normalizeName } from "./names.ts";
import type { PypiFile, PypiProject } from "./schemas.ts";
import { isPreRelease } from "./versions.ts";

export type PypiProjectRow = {
  run_date: string;
  package: string;
  repo_full_name: string | null;
  version: string;
  summary: string | null;
  license: string | null;
  requires_dist: string[];
  releases_total: number;
  stable_releases: number;
  first_release_at: string | null;
  latest_release_at: string | null;
  fetched_at: string;
};

/** A project and the GitHub repository (lower-cased owner/name) it was matched to, if any. */
export interface PypiPayload {
  project: PypiProject;
  repo: string | null;
}

function uploadedAt(file: PypiFile): string | null {
  if (file.upload_time_iso_8601) return utc(file.upload_time_iso_8601);
  return file.upload_time ? utc(`${file.upload_time}Z`) : null;
}

/** Each release with at least one live file, with the time of its first live upload. */
export function liveReleases(project: PypiProject): { version: string; at: string | null }[] {
  return Object.entries(project.releases).flatMap(([version, files]) => {
    const live = files.filter((f) => f.yanked !== true);
    if (live.length === 0) return [];
    const times = live.flatMap((f) => uploadedAt(f) ?? []).sort((a, b) => Date.parse(a) - Date.parse(b));
    return [{ version, at: times[0] ?? null }];
  });
}

export function toRows({ project, repo }: PypiPayload, meta: RowMeta): PypiProjectRow[] {
  const releases = liveReleases(project);
  const times = releases.flatMap((r) => r.at ?? []).sort((a, b) => Date.parse(a) - Date.parse(b));
  const info = project.info;
  return [
    {
      run_date: meta.runDate,
      package: normalizeName(info.name),
      repo_full_name: repo,
      version: info.version,
      summary: text(info.summary),
      // Core metadata 2.4 puts the SPDX expression in license_expression; older uploads used free text.
      license: text(info.license_expression) ?? text(info.license),
      requires_dist: info.requires_dist ?? [],
      releases_total: releases.length,
      stable_releases: releases.filter((r) => !isPreRelease(r.version)).length,
      first_release_at: times[0] ?? null,
      latest_release_at: times[times.length - 1] ?? null,
      fetched_at: meta.fetchedAt.toISOString(),
    },
  ];
}
