// The Hugging Face Hub connector: for each owner of tracked repositories, list their models, fetch each
// model's info (and README when the card data links nothing tracked), and keep models linking a tracked
// repository or named after one of the owner's (raw_hf_models). A 307 (legacy id) is followed by got.
import type { z } from "zod";
import { probePlan } from "../probes.ts";
import type { BatchItem, CollectContext, RawTable, RepoRef, Source } from "../types.ts";
import { BATCHES_IN_FLIGHT, chunk, inOrder } from "../window.ts";
import { githubReposIn, githubReposOf } from "./links.ts";
import { type HfModelRow, type HfPayload, type MatchedBy, toRows } from "./rows.ts";
import { modelInfoSchema, modelListSchema } from "./schemas.ts";

const TABLE = "raw_hf_models" satisfies RawTable;
/** Owners whose models are looked up per batch file. */
export const OWNERS_PER_BATCH = 20;
/** Most models looked at per owner, most downloaded first: big organisations publish thousands. */
export const MODELS_PER_AUTHOR = 100;

const modelPath = (id: string) => id.split("/").map(encodeURIComponent).join("/");
export const batchId = (k: number) => `${TABLE}.${String(k).padStart(5, "0")}`;
const baseOf = (ctx: CollectContext) => ctx.urls.huggingface;

/** The parsed body, or undefined after setting a malformed one aside with its URL and schema issue. */
async function parse<T>(ctx: CollectContext, schema: z.ZodType<T>, body: unknown, url: string) {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  await ctx.quarantine(url, body, parsed.error);
  return undefined;
}

/** The tracked repository a model belongs to, if any: card data, then README links, then the name. */
export function matchModel(
  modelId: string,
  links: { card: readonly string[]; readme: readonly string[] },
  tracked: ReadonlySet<string>,
  ownerRepos: readonly RepoRef[],
): { repo: string; matchedBy: MatchedBy } | undefined {
  const card = links.card.find((r) => tracked.has(r));
  if (card) return { repo: card, matchedBy: "card" };
  const readme = links.readme.find((r) => tracked.has(r));
  if (readme) return { repo: readme, matchedBy: "readme" };
  const name = modelId.split("/").pop()?.toLowerCase();
  const named = ownerRepos.find((r) => r.name.toLowerCase() === name);
  return named ? { repo: named.full_name.toLowerCase(), matchedBy: "name" } : undefined;
}

/** GitHub repositories the model card (README.md) links to; none when it has no card. */
async function readmeRepos(ctx: CollectContext, modelId: string): Promise<string[]> {
  const url = `${baseOf(ctx)}/${modelPath(modelId)}/raw/main/README.md`;
  const result = await ctx.http.request(url, { source: "huggingface", conditional: true });
  if (result.decision === "skip" || typeof result.body !== "string") return [];
  return githubReposIn([result.body]);
}

async function modelsOf(
  ctx: CollectContext,
  owner: string,
  repos: readonly RepoRef[],
  tracked: ReadonlySet<string>,
): Promise<HfModelRow[]> {
  const query = `author=${encodeURIComponent(owner)}&sort=downloads&direction=-1&limit=${MODELS_PER_AUTHOR}`;
  const listUrl = `${baseOf(ctx)}/api/models?${query}`;
  const list = await ctx.http.request(listUrl, { source: "huggingface" });
  if (list.decision === "skip") {
    ctx.count("skipped");
    return [];
  }
  const ids = ((await parse(ctx, modelListSchema, list.body, listUrl)) ?? []).map((m) => m.id);
  const rows = await Promise.all(
    ids.map(async (id): Promise<HfModelRow[]> => {
      const url = `${baseOf(ctx)}/api/models/${modelPath(id)}`;
      const result = await ctx.http.request(url, { source: "huggingface", conditional: true });
      if (result.decision === "skip") return [];
      const model = await parse(ctx, modelInfoSchema, result.body, url);
      if (!model) return [];
      const card = githubReposOf(model);
      // The README is read only when the card data names no tracked repository (most cards link in prose).
      const readme = card.some((r) => tracked.has(r)) ? [] : await readmeRepos(ctx, model.id);
      const match = matchModel(model.id, { card, readme }, tracked, repos);
      if (!match) {
        ctx.count("skipped");
        return [];
      }
      const payload: HfPayload = { model, ...match };
      return toRows(payload, { runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
    }),
  );
  return rows.flat();
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const tracked = new Set(ctx.repos.map((r) => r.full_name.toLowerCase()));
  const byOwner = new Map<string, RepoRef[]>();
  for (const repo of ctx.repos) {
    const owned = byOwner.get(repo.owner);
    if (owned) owned.push(repo);
    else byOwner.set(repo.owner, [repo]);
  }
  const plan = await probePlan(ctx, TABLE, "author");
  const owners = [...byOwner.keys()].filter((owner) => plan.due(owner, byOwner.get(owner) ?? [])).sort();
  yield* inOrder(chunk(owners, OWNERS_PER_BATCH), BATCHES_IN_FLIGHT, async (group, k): Promise<BatchItem> => {
    const id = batchId(k);
    if (await ctx.batches.has("huggingface", id)) return { id, resumed: true };
    const rows = await Promise.all(
      group.map((owner) => modelsOf(ctx, owner, byOwner.get(owner) ?? [], tracked)),
    );
    // A card may link a repository other than its author's; one row per model whatever the owner.
    const unique = new Map(rows.flat().map((r) => [r.model_id, r]));
    return { id, table: TABLE, rows: [...unique.values()] };
  });
}

export const huggingface: Source<HfPayload> = {
  name: "huggingface",
  tables: [TABLE],
  needs: ["github"],
  collect,
  toRows,
};
