// The arXiv connector: papers linked from tracked repositories' descriptions and homepages, or from the
// `arxiv:` tags of their Hugging Face models, fetched 50 ids per Atom query (raw_arxiv_papers).
import { AppError } from "../../../core/errors.ts";
import { repoTexts } from "../dockerhub/links.ts";
import type { BatchItem, CollectContext, RawTable, Source } from "../types.ts";
import { chunk } from "../window.ts";
import { readFeed } from "./feed.ts";
import { arxivIdsIn, normalizeArxivId } from "./ids.ts";
import { type ArxivPaperRow, type ArxivPayload, toRows } from "./rows.ts";

const TABLE = "raw_arxiv_papers" satisfies RawTable;
/** Ids per query: arXiv's guidance keeps id_list requests small; one query is one batch file. */
export const IDS_PER_REQUEST = 50;
/** arXiv's terms of use ask for no more than one request every three seconds. */
export const REQUEST_INTERVAL_MS = 3000;

export const batchId = (k: number) => `${TABLE}.${String(k).padStart(5, "0")}`;

/** Versionless arXiv id → tracked repositories linking to it, from GitHub rows and Hugging Face models. */
export async function linkedIds(ctx: CollectContext): Promise<Map<string, string[]>> {
  const byId = new Map<string, Set<string>>();
  const add = (id: string, repo: string) => byId.set(id, (byId.get(id) ?? new Set()).add(repo));
  for (const { repo, description, homepage } of await repoTexts(ctx)) {
    for (const id of arxivIdsIn(`${description ?? ""} ${homepage ?? ""}`)) add(id, repo);
  }
  for (const id of await ctx.batches.list("huggingface", "raw_hf_models.")) {
    type HfRow = { repo_full_name: string; arxiv_ids: string[] };
    for (const row of await ctx.batches.read<HfRow>("huggingface", id)) {
      for (const tag of row.arxiv_ids) {
        const arxivId = normalizeArxivId(tag);
        if (arxivId) add(arxivId, row.repo_full_name);
      }
    }
  }
  return new Map(
    [...byId].sort(([a], [b]) => a.localeCompare(b)).map(([id, repos]) => [id, [...repos].sort()]),
  );
}

/** The papers' rows, or "quarantined" when the feed was malformed (set aside with its URL). */
async function fetchPapers(
  ctx: CollectContext,
  ids: readonly string[],
  payload: ArxivPayload["reposById"],
): Promise<ArxivPaperRow[] | "quarantined"> {
  const base = ctx.urls.arxiv;
  const url = `${base}/api/query?id_list=${ids.join(",")}&max_results=${ids.length}`;
  const result = await ctx.http.request(url, { source: "arxiv" });
  if (result.decision === "skip") {
    ctx.count("skipped", ids.length);
    return [];
  }
  const reading = readFeed(typeof result.body === "string" ? result.body : "");
  if (reading.kind === "error") {
    // Ids are validated before sending, so an error entry means arXiv changed its rules: stop and say so.
    throw new AppError(`arXiv refused ${url}: ${reading.message}.`, {
      hint: "Check the ids against pipeline/sources/arxiv/ids.ts.",
    });
  }
  if (reading.kind === "invalid") {
    await ctx.quarantine(url, result.body, reading.error);
    return "quarantined";
  }
  return toRows(
    { feed: reading.feed, reposById: payload },
    { runDate: ctx.runDate, fetchedAt: ctx.clock.now() },
  );
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const byId = await linkedIds(ctx);
  const reposById = Object.fromEntries(byId);
  const chunks = chunk([...byId.keys()], IDS_PER_REQUEST);
  let sent = false;
  for (const [k, ids] of chunks.entries()) {
    const id = batchId(k);
    if (await ctx.batches.has("arxiv", id)) {
      yield { id, resumed: true };
      continue;
    }
    if (sent && !ctx.urls.simulated) await ctx.sleep(REQUEST_INTERVAL_MS);
    sent = true;
    const rows = await fetchPapers(ctx, ids, reposById);
    // A malformed feed is retried by the next invocation rather than saved empty for the whole run.
    yield rows === "quarantined"
      ? { id, deferred: true, reason: "the feed was malformed (quarantined)" }
      : { id, table: TABLE, rows };
  }
}

export const arxiv: Source<ArxivPayload> = {
  name: "arxiv",
  tables: [TABLE],
  needs: ["github", "huggingface"],
  collect,
  toRows,
};
