// Which PyPI project might belong to a repository, and whether a project's metadata links back to it.

/** PEP 503 normalised name: runs of -, _ and . become one -, all lower case. */
export function normalizeName(name: string): string {
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

/** The PyPI names worth trying for a repository: its name, normalised (PEP 503). */
export function candidateNames(repoName: string): string[] {
  return [normalizeName(repoName)];
}

/** Paths on github.com that are not repositories, so never "owner/name". */
const NOT_OWNERS = new Set([
  "sponsors",
  "orgs",
  "features",
  "topics",
  "marketplace",
  "apps",
  "settings",
  "about",
]);

/**
 * The lower-cased owner/name a URL points at on GitHub, or undefined. Tolerates http(s), git+, git:// and
 * git@ forms, no scheme, www., a trailing slash or `.git`, and deeper paths (/tree/main, /issues, #readme).
 */
export function githubRepoOf(url: string): string | undefined {
  const match =
    /^(?:git\+)?(?:(?:https?|git|ssh):\/\/)?(?:git@)?(?:www\.)?github\.com[/:]([^/\s?#]+)\/([^/\s?#]+)/i.exec(
      url.trim(),
    );
  if (!match) return undefined;
  const owner = (match[1] as string).toLowerCase();
  const name = (match[2] as string).replace(/\.git$/i, "").toLowerCase();
  if (NOT_OWNERS.has(owner) || name === "") return undefined;
  return `${owner}/${name}`;
}

/** Every GitHub repository the project's metadata links to (home_page and project_urls), lower-cased. */
export function linkedRepos(info: {
  home_page?: string | null;
  project_urls?: Record<string, string | null> | null;
}): string[] {
  const urls = [info.home_page ?? "", ...Object.values(info.project_urls ?? {}).map((u) => u ?? "")];
  return [...new Set(urls.flatMap((u) => githubRepoOf(u) ?? []))].sort();
}
