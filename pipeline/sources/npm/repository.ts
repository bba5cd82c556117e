// Which GitHub repository an npm `repository` field names, in every spelling npm accepts: an object with a
// git URL (git+https, git://, git+ssh://git@, https), or the shorthands "github:owner/repo" and "owner/repo".
import { githubRepoOf } from "../pypi/names.ts";
import type { NpmRepository } from "./schemas.ts";

/** The lower-cased owner/name of the GitHub repository, or undefined (GitLab, Bitbucket, none). */
export function githubRepoOfNpm(repository: NpmRepository | null | undefined): string | undefined {
  if (repository === null || repository === undefined) return undefined;
  const url = (typeof repository === "string" ? repository : (repository.url ?? "")).trim();
  const shorthand = /^(?:github:)?([A-Za-z0-9][\w.-]*)\/([\w.-]+)$/.exec(url);
  if (shorthand) return githubRepoOf(`github.com/${shorthand[1]}/${shorthand[2]}`);
  return githubRepoOf(url);
}

/** A package name as a registry path: scoped names keep "@" and encode the slash (`@scope%2fname`). */
export function packumentPath(name: string): string {
  if (!name.startsWith("@")) return encodeURIComponent(name);
  const [scope, rest] = name.slice(1).split("/", 2);
  return `@${encodeURIComponent(scope ?? "")}%2f${encodeURIComponent(rest ?? "")}`;
}

/** The npm names worth trying for a repository: its name, and `@owner/name`, lower-cased as npm requires. */
export function candidateNames(repo: { owner: string; name: string }): string[] {
  const name = repo.name.toLowerCase();
  return [name, `@${repo.owner.toLowerCase()}/${name}`];
}
