// The Docker Hub connector: images named after tracked repositories (owner/name, lower-cased) and images
// their homepages link to, with pull and star counts (raw_dockerhub_repos). A 404 is the common case.

import { probePlan } from "../probes.ts";
import type { BatchItem, CollectContext, RawTable, Source } from "../types.ts";
import { chunk, inOrder } from "../window.ts";
import { dockerImagesIn, repoTexts } from "./links.ts";
import { type DockerhubPayload, type DockerhubRow, type MatchedBy, toRows } from "./rows.ts";
import { dockerRepositorySchema } from "./schemas.ts";

const TABLE = "raw_dockerhub_repos" satisfies RawTable;
export const IMAGES_PER_BATCH = 100;
const BATCHES_AT_ONCE = 2;

export const batchId = (k: number) => `${TABLE}.${String(k).padStart(5, "0")}`;

interface Candidate {
  image: string;
  repo: string;
  matchedBy: MatchedBy;
}

/** One candidate per image, a homepage link winning over a name match; sorted by image. */
export async function candidatesOf(ctx: CollectContext): Promise<Candidate[]> {
  const byImage = new Map<string, Candidate>();
  for (const { repo, homepage } of await repoTexts(ctx)) {
    for (const image of dockerImagesIn(homepage)) byImage.set(image, { image, repo, matchedBy: "homepage" });
  }
  for (const r of ctx.repos) {
    const image = r.full_name.toLowerCase();
    if (!byImage.has(image)) byImage.set(image, { image, repo: image, matchedBy: "name" });
  }
  return [...byImage.values()].sort((a, b) => a.image.localeCompare(b.image));
}

async function lookUp(ctx: CollectContext, { image, repo, matchedBy }: Candidate): Promise<DockerhubRow[]> {
  const base = ctx.urls.dockerhub;
  const url = `${base}/v2/repositories/${image}`;
  const result = await ctx.http.request(url, { source: "dockerhub", conditional: true });
  if (result.decision === "skip") {
    ctx.count("skipped");
    return [];
  }
  const parsed = dockerRepositorySchema.safeParse(result.body);
  if (!parsed.success) {
    // Set aside with its URL and the schema issue; the image keeps yesterday's row.
    await ctx.quarantine(url, result.body, parsed.error);
    return [];
  }
  const payload: DockerhubPayload = { image: parsed.data, repo, matchedBy };
  return toRows(payload, { runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const plan = await probePlan(ctx, TABLE, "image");
  const refs = new Map(ctx.repos.map((r) => [r.full_name.toLowerCase(), r]));
  const due = (await candidatesOf(ctx)).filter((c) =>
    plan.due(c.image, [refs.get(c.repo) ?? { full_name: c.repo }]),
  );
  const chunks = chunk(due, IMAGES_PER_BATCH);
  yield* inOrder(chunks, BATCHES_AT_ONCE, async (candidates, k): Promise<BatchItem> => {
    const id = batchId(k);
    if (await ctx.batches.has("dockerhub", id)) return { id, resumed: true };
    const found = await Promise.all(candidates.map((c) => lookUp(ctx, c)));
    return { id, table: TABLE, rows: found.flat() };
  });
}

export const dockerhub: Source<DockerhubPayload> = {
  name: "dockerhub",
  tables: [TABLE],
  needs: ["github"],
  collect,
  toRows,
};
