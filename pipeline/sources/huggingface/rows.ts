// Pure mapping of Hugging Face model info to a raw_hf_models row (pipeline/sql/raw/raw_hf_models.sql).
import type { RowMeta } from "../types.ts";
import { text, utc } from "../values.ts";
import { arxivIdsOf, githubReposOf, licenseOf } from "./links.ts";
import type { ModelInfo } from "./schemas.ts";

/** How a model was tied to a repository: its card data or README links it, or it is named after it. */
export type MatchedBy = "card" | "readme" | "name";

export type HfModelRow = {
  run_date: string;
  model_id: string;
  repo_full_name: string;
  matched_by: MatchedBy;
  author: string | null;
  downloads: number | null;
  likes: number | null;
  tags: string[];
  pipeline_tag: string | null;
  library_name: string | null;
  license: string | null;
  arxiv_ids: string[];
  linked_repos: string[];
  gated: boolean;
  created_at: string | null;
  last_modified: string | null;
  fetched_at: string;
};

export interface HfPayload {
  model: ModelInfo;
  repo: string;
  matchedBy: MatchedBy;
}

export function toRows({ model, repo, matchedBy }: HfPayload, meta: RowMeta): HfModelRow[] {
  const tags = model.tags ?? [];
  return [
    {
      run_date: meta.runDate,
      model_id: model.id,
      repo_full_name: repo,
      matched_by: matchedBy,
      author: text(model.author),
      downloads: model.downloads ?? null,
      likes: model.likes ?? null,
      tags,
      pipeline_tag: text(model.pipeline_tag),
      library_name: text(model.library_name),
      license: licenseOf(tags),
      arxiv_ids: arxivIdsOf(tags),
      linked_repos: githubReposOf(model),
      gated: model.gated !== undefined && model.gated !== false,
      created_at: utc(model.createdAt),
      last_modified: utc(model.lastModified),
      fetched_at: meta.fetchedAt.toISOString(),
    },
  ];
}
