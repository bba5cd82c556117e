// Seed repositories: names listed by hand (data/seeds/*.txt, or handed over by another source, such as
// npm's `repository` links), resolved to node ids with aliased `repository(owner:, name:)` fields, 50 per
// call. Root object fields are not connections, so a call costs 1 point. A name GitHub does not know
// (NOT_FOUND) is skipped and counted; a renamed repository resolves to its current name and node id.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { statePaths } from "../../../core/config.ts";
import { writeFileAtomic } from "../../../core/files.ts";
import type { CollectContext, ResumedBatch } from "../types.ts";
import type { GithubClient } from "./client.ts";
import { envelope, rateLimitSchema } from "./schemas.ts";

export const SEEDS_PER_QUERY = 50;

export type SeedRow = { node_id: string; full_name: string } | { unknown: string };

/** owner/name lines; blank lines and `#` comments ignored; GitHub URLs accepted; de-duplicated, sorted. */
export function parseSeeds(text: string): string[] {
  const names = new Set<string>();
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    const match = /^(?:https?:\/\/github\.com\/)?([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+?)(?:\.git)?\/?$/.exec(
      line,
    );
    if (match?.[1] && match[2]) names.add(`${match[1]}/${match[2]}`.toLowerCase());
  }
  return [...names].sort();
}

export async function readSeedFile(file: string): Promise<string[]> {
  return file === "" ? [] : parseSeeds(await readFile(file, "utf8"));
}

/** Days a repository name linked from package metadata stays a seed (it is tracked by node id after). */
export const LINKED_SEED_DAYS = 7;

export const linkedDir = (ctx: Pick<CollectContext, "config">) =>
  path.join(statePaths(ctx.config).root, "seeds", "linked");

/**
 * For other sources: repositories their package metadata links to (PyPI project_urls, npm `repository`) that
 * GitHub's search did not find. GitHub resolves them as seeds on the next nights. One file per source, run
 * date and batch, so a resumed run rewrites the same file.
 */
export async function writeLinkedSeeds(
  ctx: Pick<CollectContext, "config" | "runDate">,
  source: string,
  batch: string,
  names: Iterable<string>,
): Promise<void> {
  const list = [...new Set(names)].sort();
  if (list.length === 0) return;
  const file = path.join(linkedDir(ctx), `${ctx.runDate}.${source}.${batch}.txt`);
  await writeFileAtomic(file, `${list.join("\n")}\n`, { sync: false });
}

/** The names linked in the last LINKED_SEED_DAYS runs before this one. */
export async function readLinkedSeeds(ctx: Pick<CollectContext, "config" | "runDate">): Promise<string[]> {
  const files = await readdir(linkedDir(ctx)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const oldest = new Date(Date.parse(`${ctx.runDate}T00:00:00Z`) - LINKED_SEED_DAYS * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const names: string[] = [];
  for (const file of files.sort()) {
    const day = file.slice(0, 10);
    if (!file.endsWith(".txt") || day < oldest || day >= ctx.runDate) continue;
    names.push(...parseSeeds(await readFile(path.join(linkedDir(ctx), file), "utf8")));
  }
  return names;
}

/** The query for a chunk of names: `r<k>: repository(owner: $o<k>, name: $n<k>) { id nameWithOwner }`. */
export function seedQuery(count: number): string {
  const vars = Array.from({ length: count }, (_, k) => `$o${k}: String!, $n${k}: String!`).join(", ");
  const fields = Array.from(
    { length: count },
    (_, k) => `r${k}: repository(owner: $o${k}, name: $n${k}) { id nameWithOwner }`,
  ).join("\n    ");
  return `query Seeds(${vars}) {\n    ${fields}\n    rateLimit { cost remaining resetAt limit used }\n  }`;
}

const seedAnswer = envelope(
  z
    .object({ rateLimit: rateLimitSchema.nullable().optional() })
    .catchall(z.object({ id: z.string(), nameWithOwner: z.string() }).nullable()),
);

/** Resolves the names, one bookkeeping batch per chunk (`seeds.<k>`), adding each found repository to `found`. */
export async function* resolveSeeds(
  ctx: CollectContext,
  client: GithubClient,
  names: readonly string[],
  found: Map<string, string>,
): AsyncGenerator<{ id: string; rows: SeedRow[] } | ResumedBatch> {
  for (let start = 0, k = 0; start < names.length; start += SEEDS_PER_QUERY, k++) {
    const chunk = names.slice(start, start + SEEDS_PER_QUERY);
    const id = `seeds.${String(k).padStart(5, "0")}`;
    let rows: SeedRow[];
    if (await ctx.batches.has("github", id)) {
      rows = await ctx.batches.read<SeedRow>("github", id);
      yield { id, resumed: true };
    } else {
      const variables: Record<string, string> = {};
      chunk.forEach((name, i) => {
        const [owner, repo] = name.split("/");
        variables[`o${i}`] = owner ?? "";
        variables[`n${i}`] = repo ?? "";
      });
      const answer = await client.query(seedQuery(chunk.length), variables, seedAnswer);
      rows = chunk.map((name, i) => {
        const repo = answer.data?.[`r${i}`] as { id: string; nameWithOwner: string } | null | undefined;
        return repo ? { node_id: repo.id, full_name: repo.nameWithOwner } : { unknown: name };
      });
      const unknown = rows.filter((r) => "unknown" in r).length;
      if (unknown > 0) ctx.count("skipped", unknown);
      yield { id, rows };
    }
    for (const row of rows) if ("node_id" in row) found.set(row.node_id, row.full_name);
  }
}
