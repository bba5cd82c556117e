// Links found in tracked repositories' GitHub rows of this run (description and homepage), read from the
// github source's batch files: Docker Hub images here, arXiv ids in ../arxiv. README text is not collected.
import type { CollectContext } from "../types.ts";

export interface RepoText {
  /** owner/name, lower-cased. */
  repo: string;
  description: string | null;
  homepage: string | null;
}

/** Description and homepage of every repository GitHub collected in this run, sorted by repository. */
export async function repoTexts(ctx: CollectContext): Promise<RepoText[]> {
  const texts: RepoText[] = [];
  for (const id of await ctx.batches.list("github", "raw_github_repos.")) {
    type GithubRow = { full_name: string; description: string | null; homepage: string | null };
    for (const row of await ctx.batches.read<GithubRow>("github", id)) {
      texts.push({ repo: row.full_name.toLowerCase(), description: row.description, homepage: row.homepage });
    }
  }
  return texts.sort((a, b) => a.repo.localeCompare(b.repo));
}

/** Docker Hub images (namespace/name, lower-cased) a text links to: hub.docker.com/r/<ns>/<name>. */
export function dockerImagesIn(text: string | null): string[] {
  const images = [...(text ?? "").matchAll(/hub\.docker\.com\/r\/([a-z0-9_.-]+)\/([a-z0-9_.-]+)/gi)].map(
    (m) => `${(m[1] as string).toLowerCase()}/${(m[2] as string).toLowerCase()}`,
  );
  // Official images live at hub.docker.com/_/<name>, namespace "library".
  const official = [...(text ?? "").matchAll(/hub\.docker\.com\/_\/([a-z0-9_.-]+)/gi)].map(
    (m) => `library/${(m[1] as string).toLowerCase()}`,
  );
  return [...new Set([...images, ...official])].sort();
}
