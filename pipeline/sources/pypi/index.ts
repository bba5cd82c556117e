// The PyPI connector: for each repository GitHub found in this run, try its PEP 503 name on PyPI and keep the
// project only when its metadata links back to that repository. A 404 is the common case, not an error.

import { writeLinkedSeeds } from "../github/seeds.ts";
import { probePlan } from "../probes.ts";
import type { BatchItem, CollectContext, RepoRef, Source } from "../types.ts";
import { chunk, inOrder } from "../window.ts";
import { candidateNames, linkedRepos } from "./names.ts";
import { type PypiPayload, type PypiProjectRow, toRows } from "./rows.ts";
import { pypiProjectSchema } from "./schemas.ts";

const TABLE = "raw_pypi_projects";
/** Candidate names looked up per batch file. */
export const NAMES_PER_BATCH = 100;
/** Batches fetched at once; each already sends up to NAMES_PER_BATCH requests, bounded per host. */
const BATCHES_AT_ONCE = 2;

export const projectsBatchId = (k: number) => `${TABLE}.${String(k).padStart(5, "0")}`;

/** Candidate name → the repositories that could own it, sorted so the first linked one wins. */
export function candidatesOf(repos: readonly RepoRef[]): Map<string, RepoRef[]> {
  const byName = new Map<string, RepoRef[]>();
  const sorted = [...repos].sort((a, b) =>
    a.full_name.toLowerCase().localeCompare(b.full_name.toLowerCase()),
  );
  for (const repo of sorted) {
    for (const name of candidateNames(repo.name)) {
      const owners = byName.get(name);
      if (owners) owners.push(repo);
      else byName.set(name, [repo]);
    }
  }
  return byName;
}

/** What the ETag cache keeps of a project's JSON: the fields the schema reads (collect/http.ts `keep`). */
export const keepProject = (body: unknown) => pypiProjectSchema.safeParse(body).data;

async function lookUp(
  ctx: CollectContext,
  name: string,
  owners: readonly RepoRef[],
  linked: Set<string>,
): Promise<PypiProjectRow[]> {
  const url = `${ctx.urls.pypi}/pypi/${encodeURIComponent(name)}/json`;
  const result = await ctx.http.request(url, { source: "pypi", conditional: true, keep: keepProject });
  if (result.decision === "skip") {
    ctx.count("skipped");
    return [];
  }
  const parsed = pypiProjectSchema.safeParse(result.body);
  if (!parsed.success) {
    // Set aside with its URL and the schema issue; the project keeps yesterday's row.
    await ctx.quarantine(url, result.body, parsed.error);
    return [];
  }
  const links = linkedRepos(parsed.data.info);
  const owner = owners.find((r) => links.includes(r.full_name.toLowerCase()));
  if (!owner) {
    // A repository this project links to that GitHub's search did not find: a seed for the next night.
    for (const link of links) linked.add(link);
    ctx.count("skipped");
    return [];
  }
  const payload: PypiPayload = { project: parsed.data, repo: owner.full_name.toLowerCase() };
  return toRows(payload, { runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const byName = candidatesOf(ctx.repos);
  const plan = await probePlan(ctx, TABLE, "package");
  const names = [...byName.keys()].filter((name) => plan.due(name, byName.get(name) ?? [])).sort();
  const chunks = chunk(names, NAMES_PER_BATCH);
  const tracked = new Set(ctx.repos.map((r) => r.full_name.toLowerCase()));
  yield* inOrder(chunks, BATCHES_AT_ONCE, async (chunk, k): Promise<BatchItem> => {
    const id = projectsBatchId(k);
    if (await ctx.batches.has("pypi", id)) return { id, resumed: true };
    const linked = new Set<string>();
    const found = await Promise.all(chunk.map((name) => lookUp(ctx, name, byName.get(name) ?? [], linked)));
    await writeLinkedSeeds(
      ctx,
      "pypi",
      id,
      [...linked].filter((name) => !tracked.has(name)),
    );
    return { id, table: TABLE, rows: found.flat() };
  });
}

export const pypi: Source<PypiPayload> = {
  name: "pypi",
  tables: [TABLE],
  needs: ["github"],
  collect,
  toRows,
};
