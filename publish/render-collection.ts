// Renders one collection of the route table from its .sql file: rows stream out of DuckDB partition by partition,
// and each partition becomes a records file (each record's JSON once, in canonical order) and its index.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Db, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { DETAIL_HISTORY_DAYS } from "../schemas/project-detail.ts";
import { type CollectionIndex, encodeCollectionIndex } from "./collection-index.ts";
import { ALL_PARTITION, type CollectionSpec, PASSES_AT_REPOSITORIES } from "./route-spec.ts";

export const PUBLISH_SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "sql");

/**
 * Sets the session variables every collection's SQL reads: the night rendered (run_date) and how many nights a
 * project detail's daily series holds (detail_history_days, the record schema's DETAIL_HISTORY_DAYS).
 */
export async function setRenderVariables(db: Db, runDate: string): Promise<void> {
  await db.run(`SET VARIABLE run_date = DATE ${sqlLiteral(runDate)}`);
  await db.run(`SET VARIABLE detail_history_days = ${DETAIL_HISTORY_DAYS}`);
}

/** Where a collection partition's files live inside a release. */
export function partitionKeys(collection: string, partition: string) {
  return {
    records: `collections/${collection}/${partition}.json`,
    index: `collections/${collection}/${partition}.idx`,
  };
}

export interface RenderedFile {
  /** Path inside the release. */
  path: string;
  body: Buffer;
}

/** Keys a collection's summary keeps for examples naming several items (a comparison of two). */
const EXAMPLE_KEYS = 2;

export interface CollectionSummary {
  name: string;
  /** Records per partition, every declared partition included. */
  partitions: Record<string, number>;
  records: number;
  /** The first lookup key of the first record of the first partition holding any: for documented examples. */
  exampleKey: string | undefined;
  examplePartition: string | undefined;
  /** The first lookup keys of the first records holding one, up to EXAMPLE_KEYS: examples naming several items. */
  exampleKeys?: string[];
  /** Per partition, each filter's value on the first record holding one: documented examples that find data. */
  exampleFilters: Record<string, Record<string, string>>;
}

export interface RenderCollectionOptions {
  /** Check every record against the schema ("all"), or the first 50 of each partition and 1 in 101 after. */
  validate: "all" | "sample";
  /** Called as records are rendered, for progress. */
  onRecords?: (n: number) => void;
  /** Where the .sql files are (tests); publish/sql/ by default. */
  sqlDir?: string;
  /**
   * The night's repositories: how many passes a collection rendered in passes needs (spec.passes). Absent, every
   * collection renders in one statement.
   */
  repositories?: number;
  /** Called with each partition once its files are emitted (canonical pages are rendered from it). */
  onPartition?: (partition: string, data: { records: Buffer; index: CollectionIndex }) => Promise<void>;
}

/** Reads publish/sql/<name>.sql (or <dir>/<name>.sql). */
export async function collectionSql(name: string, dir = PUBLISH_SQL_DIR): Promise<string> {
  return (await readFile(path.join(dir, `${name}.sql`), "utf8")).trim().replace(/;\s*$/, "");
}

export async function renderCollection(
  db: Db,
  spec: CollectionSpec,
  emit: (file: RenderedFile) => Promise<void>,
  options: RenderCollectionOptions,
): Promise<CollectionSummary> {
  const sql = await collectionSql(spec.sql, options.sqlDir);
  const summary: CollectionSummary = {
    name: spec.name,
    partitions: {},
    records: 0,
    exampleKey: undefined,
    examplePartition: undefined,
    exampleFilters: {},
  };
  let current: PartitionBuilder | undefined;
  const finish = async (builder: PartitionBuilder) => {
    const { records, index } = builder.build();
    const keys = partitionKeys(spec.name, builder.partition);
    await emit({ path: keys.records, body: records });
    await emit({ path: keys.index, body: encodeCollectionIndex(index) });
    summary.partitions[builder.partition] = index.count;
    if (Object.keys(builder.firstFilters).length > 0)
      summary.exampleFilters[builder.partition] = builder.firstFilters;
    summary.records += index.count;
    options.onRecords?.(index.count);
    await options.onPartition?.(builder.partition, { records, index });
  };
  const take = async (chunk: Record<string, unknown>[]) => {
    for (const row of chunk) {
      const partition = spec.partitions ? String(row._partition) : ALL_PARTITION;
      if (current?.partition !== partition) {
        if (current) await finish(current);
        if (partition in summary.partitions || (spec.partitions && !spec.partitions.includes(partition))) {
          throw refuse(
            spec,
            `partition ${JSON.stringify(partition)} is ${partition in summary.partitions ? "not contiguous (ORDER BY _partition first)" : "not one of the declared partitions"}`,
          );
        }
        current = new PartitionBuilder(spec, partition, options.validate);
      }
      current.add(row);
      const key = (row._keys as unknown[] | null | undefined)?.[0];
      const keys = summary.exampleKeys ?? [];
      if (spec.keys && typeof key === "string" && key !== "" && keys.length < EXAMPLE_KEYS) {
        summary.exampleKeys = [...keys, key];
      }
      if (summary.exampleKey === undefined && current.firstKey !== undefined) {
        summary.exampleKey = current.firstKey;
        summary.examplePartition = partition;
      }
    }
  };
  try {
    for (const pass of renderPasses(spec, options.repositories)) {
      if (pass) await db.run(`SET VARIABLE partitions = [${pass.map(sqlLiteral).join(", ")}]::VARCHAR[]`);
      try {
        for await (const chunk of db.stream<Record<string, unknown>>(sql)) await take(chunk);
      } finally {
        if (pass) await db.run("RESET VARIABLE partitions");
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      `Rendering the ${spec.name} collection (publish/sql/${spec.sql}.sql) failed: ${(error as Error).message}`,
      {
        hint: "Run `projintel score` for the run date first: it builds every table the release renders from.",
        stage: "publish",
        cause: error,
      },
    );
  }
  if (current) await finish(current);
  for (const partition of spec.partitions ?? [ALL_PARTITION]) {
    if (!(partition in summary.partitions))
      await finish(new PartitionBuilder(spec, partition, options.validate));
  }
  return summary;
}

/**
 * The partitions of each rendering pass, in order: a collection too large to render in one statement within the
 * warehouse's memory (project details at 220,000 repositories) runs its SQL once per group of partitions, which
 * the SQL reads from getvariable('partitions'), as many groups as the night's repositories need; one pass of
 * everything (undefined) otherwise. Each pass reads every table the SQL joins again: the 12 fixture repositories'
 * project details took 6.8 s in ten passes, 1.9 s in one (at load 14).
 */
function renderPasses(
  spec: CollectionSpec,
  repositories: number | undefined,
): (readonly string[] | undefined)[] {
  if (!spec.passes || !spec.partitions || repositories === undefined) return [undefined];
  const share = Math.ceil((spec.passes * repositories) / PASSES_AT_REPOSITORIES);
  const passes = Math.min(spec.partitions.length, share);
  if (passes <= 1) return [undefined];
  const sorted = [...spec.partitions].sort();
  const size = Math.ceil(sorted.length / passes);
  return Array.from({ length: Math.ceil(sorted.length / size) }, (_, i) =>
    sorted.slice(i * size, (i + 1) * size),
  );
}

function refuse(spec: CollectionSpec, why: string): AppError {
  return new AppError(`The ${spec.name} collection cannot be published: ${why}.`, {
    hint: `Fix publish/sql/${spec.sql}.sql (or the tables it reads) so every row matches the route table, then publish again.`,
    stage: "publish",
  });
}

/** Accumulates one partition's records and index as rows arrive in canonical order. */
class PartitionBuilder {
  readonly partition: string;
  firstKey: string | undefined;
  readonly firstFilters: Record<string, string> = {};
  private readonly spec: CollectionSpec;
  private readonly validate: "all" | "sample";
  private readonly chunks: string[] = [];
  private readonly offsets: number[] = [];
  private bytes = 1; // after "["
  private readonly filters = new Map<string, Map<string, number[]>>();
  private readonly rank: number[] = [];
  private readonly keys = new Map<string, number>();
  private readonly search: string[] = [];

  constructor(spec: CollectionSpec, partition: string, validate: "all" | "sample") {
    this.spec = spec;
    this.partition = partition;
    this.validate = validate;
    for (const name of spec.filters ?? []) this.filters.set(name, new Map());
  }

  add(row: Record<string, unknown>): void {
    const ordinal = this.chunks.length;
    const json = typeof row.record === "string" ? row.record : JSON.stringify(row.record);
    if (this.validate === "all" || ordinal < 50 || ordinal % 101 === 0) this.check(json, ordinal);
    this.offsets.push(this.bytes);
    this.bytes += Buffer.byteLength(json) + 1; // the record, then "," (or the final "]")
    this.chunks.push(json);
    for (const [name, values] of this.filters) {
      const value = row[`_f_${name}`];
      for (const v of Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]) {
        this.firstFilters[name] ??= String(v);
        const list = values.get(String(v));
        if (list) list.push(ordinal);
        else values.set(String(v), [ordinal]);
      }
    }
    if (this.spec.rank) {
      const rank = Number(row._rank);
      const previous = this.rank[ordinal - 1];
      const wrong =
        previous !== undefined && (this.spec.rank.order === "desc" ? rank > previous : rank < previous);
      if (!Number.isInteger(rank) || wrong) {
        throw refuse(
          this.spec,
          `_rank ${String(row._rank)} of record ${ordinal} in ${this.partition} breaks the ${this.spec.rank.order} order`,
        );
      }
      this.rank.push(rank);
    }
    if (this.spec.keys) {
      for (const key of (row._keys as unknown[] | null) ?? []) {
        if (typeof key !== "string" || key === "") continue;
        this.firstKey ??= key;
        if (!this.keys.has(key)) this.keys.set(key, ordinal);
      }
    }
    if (this.spec.search) this.search.push(String(row._search ?? "").replace(/\n/g, " "));
  }

  build(): { records: Buffer; index: CollectionIndex } {
    const records = Buffer.from(`[${this.chunks.join(",")}]`, "utf8");
    const count = this.chunks.length;
    const offsets = new Uint32Array(count + 1);
    offsets.set(this.offsets);
    // One past the closing "]": the end of the last record is always offsets[count] - 1, even with none.
    offsets[count] = records.length;
    const filters = new Map(
      [...this.filters].map(([name, values]) => [
        name,
        new Map([...values].map(([value, list]) => [value, Uint32Array.from(list)])),
      ]),
    );
    const index: CollectionIndex = { count, offsets, filters };
    if (this.spec.rank) {
      index.rank = Int32Array.from(this.rank);
      index.rankOrder = this.spec.rank.order;
    }
    if (this.spec.keys) index.keys = this.keys;
    if (this.spec.search) index.search = this.search;
    return { records, index };
  }

  private check(json: string, ordinal: number): void {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      throw refuse(this.spec, `record ${ordinal} of ${this.partition} is not valid JSON`);
    }
    const checked = this.spec.record.safeParse(value);
    if (checked.success) return;
    const issues = checked.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`);
    const name =
      (value as { full_name?: unknown; slug?: unknown }).full_name ?? (value as { slug?: unknown }).slug;
    throw refuse(
      this.spec,
      `record ${ordinal} of ${this.partition}${name ? ` (${String(name)})` : ""} does not match its schema: ${issues.join("; ")}`,
    );
  }
}
