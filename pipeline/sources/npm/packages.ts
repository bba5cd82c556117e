// Packument lookups: for each candidate name (a tracked repository's name, or `@owner/name`), fetch the full
// package document and keep it only when its `repository` links back to one of the candidate's repositories.
import type { CollectContext, RepoRef } from "../types.ts";
import { candidateNames, githubRepoOfNpm, packumentPath } from "./repository.ts";
import { type NpmPackageRow, packageRow } from "./rows.ts";
import { packumentSchema } from "./schemas.ts";
import { npmUrls } from "./urls.ts";

/** Candidate name → the repositories that could own it, sorted so the first linked one wins. */
export function candidatesOf(repos: readonly RepoRef[]): Map<string, RepoRef[]> {
  const byName = new Map<string, RepoRef[]>();
  const sorted = [...repos].sort((a, b) =>
    a.full_name.toLowerCase().localeCompare(b.full_name.toLowerCase()),
  );
  for (const repo of sorted) {
    for (const name of candidateNames(repo)) byName.set(name, [...(byName.get(name) ?? []), repo]);
  }
  return byName;
}

/** What the ETag cache keeps of a packument: the fields the schema reads (collect/http.ts `keep`). */
export const keepPackument = (body: unknown) => packumentSchema.safeParse(body).data;

export async function lookUpPackage(
  ctx: CollectContext,
  name: string,
  owners: readonly RepoRef[],
): Promise<NpmPackageRow[]> {
  const url = `${npmUrls(ctx).npm}/${packumentPath(name)}`;
  const result = await ctx.http.request(url, { source: "npm", conditional: true, keep: keepPackument });
  if (result.decision === "skip") {
    ctx.count("skipped");
    return [];
  }
  const parsed = packumentSchema.safeParse(result.body);
  if (!parsed.success) {
    // Set aside with its URL and the schema issue; the package keeps yesterday's row.
    await ctx.quarantine(url, result.body, parsed.error);
    return [];
  }
  const packument = parsed.data;
  const latest = packument["dist-tags"]?.latest;
  const link = githubRepoOfNpm(
    packument.repository ?? (latest ? packument.versions?.[latest]?.repository : undefined),
  );
  const owner = owners.find((r) => r.full_name.toLowerCase() === link);
  if (!owner) {
    ctx.count("skipped");
    return [];
  }
  return [
    packageRow(packument, owner.full_name.toLowerCase(), {
      runDate: ctx.runDate,
      fetchedAt: ctx.clock.now(),
    }),
  ];
}
