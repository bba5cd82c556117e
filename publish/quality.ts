// Renders /api/v1/quality from the warehouse's score_quality table: per domain (all 30, empty ones too) a
// records file (each record's JSON once, in canonical order), its slice index, and the canonical pages
// of the default query (limit 50) per subcategory × tier, "_all" standing for "no filter".
import type { Db } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import {
  DOMAINS,
  LIMITS,
  parseParams,
  QUALITY_TIERS,
  qualityParams,
  qualityRecordSchema,
} from "../schemas/index.ts";
import { listBytes } from "./envelope.ts";
import { prepareQualityPage } from "./quality-page.ts";
import { encodeSliceIndex, type SliceIndex } from "./slice-index.ts";

export const QUALITY_PREFIX = "api/v1/quality";
/** Stands for "no filter" in canonical page paths; subcategories never start with "_" (see SAFE_NAME). */
export const ALL = "_all";
const SAFE_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Record fields in the published order (the spec's table, then slug). */
const FIELDS = Object.keys(qualityRecordSchema.shape);
/** The canonical order of quality lists (docs/contracts.md); node_id only breaks exact ties. */
const SELECT_DOMAIN = `SELECT node_id, ${FIELDS.join(", ")} FROM score_quality WHERE domain = $1 ORDER BY quality_score DESC, stars DESC, full_name ASC, node_id ASC`;

export const qualityKeys = (domain: string) => ({
  records: `${QUALITY_PREFIX}/${domain}/records.json`,
  index: `${QUALITY_PREFIX}/${domain}/index.bin`,
});

export function canonicalPageKey(domain: string, subcategory: string, tier: string, offset: number): string {
  return `${QUALITY_PREFIX}/${domain}/pages/${subcategory}/${tier}/${offset}.json`;
}

export interface RenderedFile {
  /** Path inside the release, e.g. "api/v1/quality/mcp/records.json". */
  path: string;
  body: Buffer;
}

export interface RenderContext {
  db: Db;
  /** meta.timestamp of the canonical pages: the release's creation time. */
  timestamp: string;
  canonicalPages: boolean;
  /** Called after each domain, with its number of records. */
  onDomain?: (domain: string, records: number) => void;
}

/** Per-domain record counts of score_quality; refuses rows whose domain is not one of the 30. */
export async function countQualityRows(db: Db): Promise<{ total: number; byDomain: Record<string, number> }> {
  const rows = await db.all<{ domain: string | null; n: number }>(
    "SELECT domain, count(*)::INTEGER AS n FROM score_quality GROUP BY domain ORDER BY domain",
  );
  const known = new Set<string>(DOMAINS);
  const unknown = rows.filter((r) => r.domain === null || !known.has(r.domain));
  if (unknown.length > 0) {
    throw new AppError(
      `score_quality has ${unknown.reduce((n, r) => n + r.n, 0)} rows outside the 30 domains (${unknown.map((r) => String(r.domain)).join(", ")}).`,
      {
        hint: "Fix the classification (data/taxonomy.json, feat_classification.sql) and rerun the scores.",
        stage: "publish",
      },
    );
  }
  const byDomain = Object.fromEntries(DOMAINS.map((d) => [d, rows.find((r) => r.domain === d)?.n ?? 0]));
  return { total: rows.reduce((n, r) => n + r.n, 0), byDomain };
}

/** Renders every domain, handing each file to `emit` (awaited, so writing paces rendering). */
export async function renderQuality(ctx: RenderContext, emit: (file: RenderedFile) => Promise<void>) {
  const counts: Record<string, number> = {};
  for (const domain of DOMAINS) {
    const rows = await ctx.db.all<Record<string, unknown>>(SELECT_DOMAIN, [domain]);
    const { records, index } = buildDomain(domain, rows);
    const keys = qualityKeys(domain);
    await emit({ path: keys.records, body: records });
    await emit({ path: keys.index, body: encodeSliceIndex(index) });
    if (ctx.canonicalPages) {
      for (const page of canonicalPages(domain, { records, index }, ctx.timestamp)) await emit(page);
    }
    counts[domain] = index.count;
    ctx.onDomain?.(domain, index.count);
  }
  return counts;
}

/** Serialises a domain's rows (in canonical order) into the records file and builds its index. */
export function buildDomain(domain: string, rows: readonly Record<string, unknown>[]) {
  const chunks: string[] = [];
  const offsets = new Uint32Array(rows.length + 1);
  const scores = new Uint8Array(rows.length);
  const bySubcategory = new Map<string, number[]>();
  let at = 1; // after "["
  rows.forEach((row, i) => {
    const json = JSON.stringify(toRecord(domain, row));
    offsets[i] = at;
    at += Buffer.byteLength(json) + 1; // the record, then "," (or the final "]")
    chunks.push(json);
    const score = row.quality_score as number;
    scores[i] = score;
    const sub = row.subcategory as string | null;
    if (sub) {
      const list = bySubcategory.get(sub);
      if (list) list.push(i);
      else bySubcategory.set(sub, [i]);
    }
    if (i > 0 && score > (scores[i - 1] as number)) {
      throw new AppError(
        `score_quality rows of ${domain} are not in canonical order at ${String(row.full_name)}.`,
        {
          stage: "publish",
        },
      );
    }
  });
  const records = Buffer.from(`[${chunks.join(",")}]`, "utf8");
  // One past the closing "]": the end of the last record is always offsets[count] - 1, even with none.
  offsets[rows.length] = records.length;
  const subcategories = new Map([...bySubcategory].map(([name, list]) => [name, Uint32Array.from(list)]));
  const index: SliceIndex = { count: rows.length, offsets, scores, subcategories };
  return { records, index };
}

/** A row as a published record: every field in the schema's order, absent text as null, checked. */
function toRecord(domain: string, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = row[field];
    record[field] = value === "" || value === undefined ? null : value;
  }
  if (record.downloads_monthly === null) record.downloads_monthly = 0;
  const checked = qualityRecordSchema.safeParse(record);
  const sub = record.subcategory;
  const issue = checked.success
    ? typeof sub === "string" && !SAFE_NAME.test(sub)
      ? `subcategory ${JSON.stringify(sub)} is not lowercase kebab-case`
      : undefined
    : checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  if (issue) {
    throw new AppError(
      `score_quality row ${String(row.full_name)} (${domain}) cannot be published: ${issue}.`,
      {
        hint: "Fix the scoring SQL so every row matches the quality record of schemas/records.ts, then rerun it.",
        stage: "publish",
      },
    );
  }
  return record;
}

/** Pages of limit 50 for every subcategory × tier filter, "_all" included; an empty result gets page 0. */
function* canonicalPages(
  domain: string,
  data: { records: Buffer; index: SliceIndex },
  timestamp: string,
): Generator<RenderedFile> {
  const size = LIMITS.quality.default;
  const subcategories = [ALL, ...[...data.index.subcategories.keys()].sort()];
  for (const sub of subcategories) {
    for (const tier of [ALL, ...QUALITY_TIERS]) {
      const raw: Record<string, string> = { domain };
      if (sub !== ALL) raw.subcategory = sub;
      if (tier !== ALL) raw.quality_tier = tier;
      for (let offset = 0; ; offset += size) {
        const parsed = parseParams(qualityParams, { ...raw, offset: String(offset) });
        if (!parsed.ok)
          throw new AppError(`Canonical page query is invalid: ${parsed.message}`, { stage: "publish" });
        const page = prepareQualityPage(data, parsed.value);
        yield { path: canonicalPageKey(domain, sub, tier, offset), body: listBytes(page.body, timestamp) };
        if (page.nextOffset === null) break;
      }
    }
  }
}
