// Pure mapping of a parsed Docker Hub repository to a raw_dockerhub_repos row (pipeline/sql/raw/).
import type { RowMeta } from "../types.ts";
import { text, utc } from "../values.ts";
import type { DockerRepository } from "./schemas.ts";

/** How an image was tied to a repository: named after it (owner/name), or linked from its homepage. */
export type MatchedBy = "name" | "homepage";

export type DockerhubRow = {
  run_date: string;
  image: string;
  repo_full_name: string;
  matched_by: MatchedBy;
  description: string | null;
  pull_count: number;
  star_count: number;
  last_updated: string | null;
  date_registered: string | null;
  status: string | null;
  fetched_at: string;
};

export interface DockerhubPayload {
  image: DockerRepository;
  repo: string;
  matchedBy: MatchedBy;
}

export function toRows({ image, repo, matchedBy }: DockerhubPayload, meta: RowMeta): DockerhubRow[] {
  return [
    {
      run_date: meta.runDate,
      image: `${image.namespace}/${image.name}`.toLowerCase(),
      repo_full_name: repo,
      matched_by: matchedBy,
      description: text(image.description),
      pull_count: image.pull_count,
      star_count: image.star_count,
      last_updated: utc(image.last_updated),
      date_registered: utc(image.date_registered),
      status: text(image.status_description),
      fetched_at: meta.fetchedAt.toISOString(),
    },
  ];
}
