// The shape every connector has: a name, the raw tables it fills, a fetch that yields batches, and a pure
// mapping from one parsed payload to rows. pipeline/collect.ts drives them through this interface only.
import type { ZodError } from "zod";
import type { Clock } from "../../core/clock.ts";
import type { Config } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";
import type { BatchStore } from "../collect/batches.ts";
import type { HttpClient } from "../collect/http.ts";
import type { Shard } from "../schedule/shards.ts";
import type { SourceUrls } from "./urls.ts";

export type RawTable =
  | "raw_github_repos"
  | "raw_github_gone"
  | "raw_github_activity"
  | "raw_github_stars"
  | "raw_pypi_projects"
  | "raw_pypi_downloads"
  | "raw_npm_packages"
  | "raw_npm_downloads"
  | "raw_dockerhub_repos"
  | "raw_hf_models"
  | "raw_hn_posts"
  | "raw_arxiv_papers";
export type Row = Record<string, unknown>;

/** When a payload was fetched, for the rows made from it. */
export interface RowMeta {
  /** YYYY-MM-DD */
  runDate: string;
  fetchedAt: Date;
}

/**
 * One unit of fetched work, saved as one file. `table` names the raw table the rows go to; a batch without
 * one is the source's own bookkeeping (e.g. GitHub search results), kept for resuming and never loaded.
 * Batch ids of a table start with `<table>.` so the loader can find them.
 */
export interface Batch {
  id: string;
  table?: RawTable;
  rows: readonly Row[];
}

/** A batch found already saved by an earlier invocation for the same run date: not fetched again. */
export interface ResumedBatch {
  id: string;
  resumed: true;
}

/**
 * A batch given up for this invocation (its answer was quarantined as malformed): nothing is saved, its
 * entities keep their previous values (stale), and the next invocation for the run date fetches it again.
 */
export interface DeferredBatch {
  id: string;
  deferred: true;
  reason: string;
}

/** What a source's collect yields: a fetched batch to save, a saved one it skipped, or one it gave up. */
export type BatchItem = Batch | ResumedBatch | DeferredBatch;

/** A repository found on GitHub in this run: what later sources need to look for its packages. */
export interface RepoRef {
  node_id: string;
  /** owner/name as GitHub spells it. */
  full_name: string;
  owner: string;
  name: string;
  /**
   * Whether GitHub's full details query refreshed it tonight (by its tier: see pipeline/schedule/tiers.ts);
   * its registry entries are refreshed on the same nights. Absent in hand-made refs: treated as true.
   */
  full_refresh?: boolean;
}

/** Earlier runs in the warehouse, read-only: what a source needs to plan today and carry values forward. */
export interface History {
  /**
   * Each key's latest row before the run date in `table`, with only `key` and `columns`; only for `keys`
   * and only among the last `withinDays` run dates when given (the scan then skips older row groups).
   * Empty before the first run. DATE and TIMESTAMP values come back as ISO strings.
   */
  latest(
    table: RawTable,
    key: string,
    columns: readonly string[],
    keys?: readonly string[],
    options?: { withinDays?: number },
  ): Promise<Row[]>;
}

export interface CollectContext {
  config: Config;
  urls: SourceUrls;
  http: HttpClient;
  logger: Logger;
  clock: Clock;
  /** Waits; tests pass one that records instead. */
  sleep: (ms: number) => Promise<void>;
  runDate: string;
  /** The run's batch store; a source checks `has(name, id)` before fetching a batch and skips it if present. */
  batches: BatchStore;
  /** Earlier runs' rows (collect always provides it; optional so hand-made test contexts may leave it out). */
  history?: History;
  /** Repositories GitHub found in this run (empty while GitHub itself runs). */
  repos: readonly RepoRef[];
  /**
   * The collection shard this run is (`collect --shard i/n`): GitHub searches the shard's terms and seeds and
   * refreshes the shard's repositories (pipeline/schedule/shards.ts); the other sources follow `repos`. Absent: all.
   */
  shard?: Shard;
  /**
   * Counts, for the report: entities skipped (deleted, not found, not linked), GraphQL points spent (and,
   * of those, the ones spent on discovery searches), the repositories tracked in this run, and those whose
   * REST activity was left for a later night (budget spent).
   */
  count(
    what: "skipped" | "graphql_points" | "graphql_points_discovery" | "repos_total" | "activity_stale",
    n?: number,
  ): void;
  /**
   * Sets a malformed payload aside (<stateDir>/quarantine/<run_date>/<source>/) with its URL and the schema
   * issues, and counts it. The caller then skips the entity: a malformed payload never stops the run.
   */
  quarantine(url: string, payload: unknown, error: ZodError): Promise<void>;
}

export interface Source<Payload = unknown> {
  readonly name: string;
  /** The raw tables this source writes. */
  readonly tables: readonly RawTable[];
  /** Sources whose rows of this run this one needs; it does not run when one of them failed. */
  readonly needs: readonly string[];
  /** Fetches what is not already in the batch store and yields it batch by batch, resumed ones included. */
  collect(ctx: CollectContext): AsyncIterable<BatchItem>;
  /** Pure: one parsed payload to rows carrying exactly the columns of the source's raw table. */
  toRows(payload: Payload, meta: RowMeta): Row[];
}
