// Publishes one release to a Storage (the state folder, another folder or a bucket): gate, render the datasets, then
// every collection of the route table (and the canonical pages and documents) into releases/<id>/, confirm every
// object is stored, write the manifest, upload the night's public database to a remote target, flip
// releases/current.json last, then prune old releases. Files unchanged since the live release are copied from it,
// not uploaded again; an interrupted publish of the same night is resumed, keeping what it already stored.
import { type Clock, isoDay, systemClock } from "../core/clock.ts";
import { type Config, statePaths } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import { AppError, inStage } from "../core/errors.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import { startProgress } from "../core/progress.ts";
import { latestPublicDb } from "../core/public-db.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { parseParams } from "../schemas/index.ts";
import { renderDatasetFiles } from "./artifact-datasets.ts";
import { type ArtifactContext, type ReleaseContext, renderArtifacts } from "./artifacts.ts";
import { setBadgeMarkdownVariable } from "./badges.ts";
import { canonicalPages } from "./canonical-pages.ts";
import { readPreviousDatasets } from "./dataset-carry.ts";
import { formatTimestamp } from "./envelope.ts";
import { checkGate, countProjects } from "./gate.ts";
import {
  CURRENT_KEY,
  FORMAT_VERSION,
  MANIFEST_FILE,
  type Manifest,
  type Pointer,
  PUBLISHING_FILE,
  RELEASE_CACHE_CONTROL,
  readManifest,
  readPointer,
  releaseKey,
  releasePrefix,
} from "./layout.ts";
import { acquirePublishLock, type PublishLock } from "./lock.ts";
import { pruneReleases, removeReleaseLeftovers } from "./prune.ts";
import {
  confirmStored,
  isRemote,
  type PublicDbUpload,
  releaseToWrite,
  uploadPublicDb,
} from "./release-target.ts";
import { contentTypeOf, createReleaseWriter, sha256, type WriterStats } from "./release-writer.ts";
import { type CollectionSummary, renderCollection, setRenderVariables } from "./render-collection.ts";
import { ALL_PARTITION, type CollectionRoute, collectionsOf } from "./route-spec.ts";
import { ROUTES } from "./routes/index.ts";

export interface PublishOptions {
  db: Db;
  config: Pick<Config, "stateDir" | "publish">;
  /** Where the release goes (`publish --target`): defaults to the state folder (releases live under its releases/). */
  storage?: Storage;
  clock?: Clock;
  logger?: Logger;
  /** Publish even when the project count shrank below config.publish.minShareOfPrevious of the live one. */
  force?: boolean;
  /** Check every record against its schema (tests), not a sample (the nightly default). */
  validate?: "all" | "sample";
}

export interface PublishReport {
  releaseId: string;
  runDate: string;
  createdAt: string;
  projects: number;
  /** Records per partition of every collection. */
  collections: Record<string, Record<string, number>>;
  files: number;
  bytes: number;
  /** Files written, copied unchanged from the previous release, and kept from an interrupted publish (resume). */
  writes: WriterStats;
  /** Where the release went and what crossed to it: objects uploaded, copied in place, skipped; bytes; seconds. */
  transfer: {
    target: string;
    resumed: boolean;
    uploaded: number;
    copied: number;
    skipped: number;
    bytesUploaded: number;
    seconds: number;
  };
  /** The night's public database on a target other than the state folder (public-db/<run_date>.duckdb). */
  publicDb: PublicDbUpload;
  previous: { releaseId: string; projects: number } | undefined;
  /** Set when --force let a shrunken release through, saying by how much. */
  forced: string | undefined;
  /** Release ids deleted by pruning, oldest first. */
  pruned: string[];
  duration_ms: number;
}

export async function publishRelease(options: PublishOptions): Promise<PublishReport> {
  const { config } = options;
  const started = performance.now();
  const storage = options.storage ?? createLocalStorage(statePaths(config).root);
  const clock = options.clock ?? systemClock;
  const logger = (options.logger ?? silentLogger).child({ stage: "publish" });

  // One publisher per prefix, from the first write (the leftovers' removal) to the last (the prune).
  const lock = await acquirePublishLock({ storage, clock, logger, settleMs: config.publish.lockSettleMs });
  logger.info("publish lock taken", { owner: lock.record.owner, mode: lock.mode });
  try {
    return await publishLocked(options, { storage, clock, logger, lock, started });
  } finally {
    await lock.release().catch((error: unknown) =>
      logger.warn("could not remove the publish lock; it is taken over once it expires", {
        error: String(error),
      }),
    );
  }
}

async function publishLocked(
  options: PublishOptions,
  context: { storage: Storage; clock: Clock; logger: Logger; lock: PublishLock; started: number },
): Promise<PublishReport> {
  const { db, config } = options;
  const { storage, clock, logger, lock, started } = context;
  await removeReleaseLeftovers(storage);
  const projects = await countProjects(db);
  const pointer = await readPointer(storage);
  const live = pointer ? await liveManifest(storage, pointer) : undefined;
  const previous = live && { releaseId: live.release_id, projects: live.counts.projects };
  const forced = checkGate({
    projects,
    previous,
    minShareOfPrevious: config.publish.minShareOfPrevious,
    force: options.force ?? false,
  });
  if (forced) logger.warn(forced);

  const runDate = await readRunDate(db);
  await setRenderVariables(db, runDate);
  await setBadgeMarkdownVariable(db, config.publish.baseUrl);
  const { id, created, existing } = await releaseToWrite(storage, runDate, clock.now(), live?.release_id);
  const prefix = releasePrefix(id);
  logger.info(existing ? "resuming an interrupted release" : "publishing release", {
    release_id: id,
    run_date: runDate,
    projects,
    target: storage.location,
    ...(existing ? { objects_already_stored: existing.size } : {}),
  });
  await storage.put(
    releaseKey(id, PUBLISHING_FILE),
    `${JSON.stringify({ release_id: id, run_date: runDate, started_at: formatTimestamp(clock.now()) })}\n`,
    { contentType: contentTypeOf(PUBLISHING_FILE), cacheControl: "no-cache" },
  );
  let manifest: Manifest;
  let publicDb: PublicDbUpload;
  const progress = startProgress(logger, "publish:store", undefined);
  const writer = createReleaseWriter(storage, prefix, {
    previous: live && {
      prefix: releasePrefix(live.release_id),
      files: new Map(live.files.map((f) => [f.path, f])),
    },
    existing,
    progress,
  });
  try {
    const release: ReleaseContext = {
      db,
      routes: ROUTES,
      runDate,
      releaseId: id,
      createdAt: formatTimestamp(created),
      baseUrl: config.publish.baseUrl,
      contactEmail: config.publish.contactEmail,
      stateRoot: statePaths(config).root,
      previous: live ? new Map(live.files.map((f) => [f.path, f])) : new Map(),
      previousDatasets: live && (await readPreviousDatasets(storage, live.release_id)),
      logger,
    };
    // the datasets first: a history night or month the release would lack (dataset-carry.ts) is refused in seconds,
    // before the collections' minutes of rendering and storing
    await renderDatasetFiles(release, writer.write);
    const collections = await renderCollections(db, writer.write, {
      validate: options.validate ?? "sample",
      repositories: projects,
      canonicalPages: config.publish.canonicalPages,
      // canonical pages carry the run date: the same data publishes the same bytes
      timestamp: `${runDate}T00:00:00.000+00:00`,
      logger,
    });
    const context: ArtifactContext = { ...release, collections, examples: routeExamples(collections) };
    await renderArtifacts(context, writer.write);
    const files = await writer.finish();
    progress.done({ ...writer.stats });
    // the night's build as it is now: queries of this release read it, whatever a later build of the night writes
    const publicDbFile = await latestPublicDb(statePaths(config).root, runDate);
    manifest = {
      format: FORMAT_VERSION,
      release_id: id,
      run_date: runDate,
      created_at: formatTimestamp(created),
      counts: {
        projects,
        collections: Object.fromEntries(collections.map((c) => [c.name, c.partitions])),
      },
      examples: routeExamples(collections),
      files,
      ...(publicDbFile ? { public_db: publicDbFile } : {}),
    };
    // Nothing names the release until every object is confirmed: the manifest, then the pointer, come last.
    const removed = await confirmStored(storage, id, files);
    if (removed > 0)
      logger.info("removed objects of an interrupted publish not in this release", { removed });
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`, "utf8");
    await storage.put(releaseKey(id, MANIFEST_FILE), manifestBytes, {
      contentType: contentTypeOf(MANIFEST_FILE),
      cacheControl: RELEASE_CACHE_CONTROL,
    });
    publicDb = await uploadPublicDb(storage, config, runDate, logger, publicDbFile);
    const next: Pointer = {
      format: FORMAT_VERSION,
      release_id: id,
      run_date: runDate,
      created_at: manifest.created_at,
      manifest_sha256: sha256(manifestBytes),
    };
    await lock.confirm();
    await storage.putPointer(CURRENT_KEY, `${JSON.stringify(next, null, 1)}\n`);
  } catch (error) {
    // The pointer still names the previous release. The objects stored so far stay, without a manifest: the next
    // publish of this night resumes from them (releaseToWrite), a later night's prune removes them.
    await writer.finish().catch(() => undefined);
    await storage.delete(releaseKey(id, MANIFEST_FILE)).catch((cleanup: unknown) =>
      logger.warn("could not remove the manifest of the failed release", {
        release_id: id,
        error: String(cleanup),
      }),
    );
    logger.warn("the release was not published; the next publish resumes it", {
      release_id: id,
      ...writer.stats,
    });
    throw inStage("publish", error);
  }
  await storage
    .delete(releaseKey(id, PUBLISHING_FILE))
    .catch((error: unknown) =>
      logger.warn("could not remove the publishing marker", { error: String(error) }),
    );
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  logger.info("release is live", { release_id: id, files: manifest.files.length, ...writer.stats, seconds });

  // The release is live whatever happens now: a failed prune is worth a warning, not a failed publish.
  const pruned = await pruneReleases(storage, id, {
    keep: config.publish.keepReleases,
    retentionDays: config.publish.retentionDays,
    now: clock.now(),
    publicDbs: isRemote(storage, config),
  }).catch((error: unknown) => {
    logger.warn("could not prune old releases; the next publish tries again", { error: String(error) });
    return { releases: [], publicDbs: [] };
  });
  if (pruned.releases.length > 0 || pruned.publicDbs.length > 0) {
    logger.info("pruned old releases", { release_ids: pruned.releases, public_dbs: pruned.publicDbs });
  }
  return {
    releaseId: id,
    runDate,
    createdAt: manifest.created_at,
    projects,
    collections: manifest.counts.collections,
    files: manifest.files.length + 1,
    bytes: manifest.files.reduce((n, f) => n + f.bytes, 0),
    writes: { ...writer.stats },
    transfer: {
      target: storage.location,
      resumed: existing !== undefined,
      uploaded: writer.stats.written,
      copied: writer.stats.reused,
      skipped: writer.stats.skipped,
      bytesUploaded: writer.stats.writtenBytes,
      seconds,
    },
    publicDb,
    previous,
    forced,
    pruned: pruned.releases,
    duration_ms: Math.round(performance.now() - started),
  };
}

/** Renders every collection the route table uses, with the canonical pages of its list routes. */
async function renderCollections(
  db: Db,
  write: (file: { path: string; body: Buffer }) => Promise<void>,
  options: {
    validate: "all" | "sample";
    repositories: number;
    canonicalPages: boolean;
    timestamp: string;
    logger: Logger;
  },
): Promise<CollectionSummary[]> {
  const summaries: CollectionSummary[] = [];
  for (const collection of collectionsOf(ROUTES)) {
    const progress = startProgress(options.logger, `publish:${collection.name}`, undefined);
    const lists = ROUTES.filter(
      (r): r is CollectionRoute => r.kind === "list" && r.collection === collection,
    );
    const summary = await renderCollection(db, collection, write, {
      validate: options.validate,
      repositories: options.repositories,
      onRecords: (n) => progress.tick(n),
      onPartition: async (partition, data) => {
        if (!options.canonicalPages) return;
        for (const route of lists) {
          for (const page of canonicalPages(route, partition, data, options.timestamp)) await write(page);
        }
      },
    });
    progress.done({ records: summary.records });
    summaries.push(summary);
  }
  return summaries;
}

/**
 * Example parameters found in this release: for an item route, a request finding its collection's first record;
 * for a list route, the filters' values on the first record of its example partition, so that each documented
 * filter finds data (parameters the route gives examples of itself are kept).
 */
export function routeExamples(
  collections: readonly CollectionSummary[],
): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const route of ROUTES) {
    if (route.kind === "file" || route.kind === "dynamic") continue;
    const summary = collections.find((c) => c.name === route.collection.name);
    if (summary === undefined) continue;
    if (route.kind === "list") {
      const found = listExamples(route, summary);
      if (Object.keys(found).length > 0) out[route.name] = found;
      continue;
    }
    if (!route.exampleParams || summary.exampleKey === undefined || summary.examplePartition === undefined)
      continue;
    out[route.name] = route.exampleParams(
      summary.exampleKey,
      summary.examplePartition,
      summary.exampleKeys ?? [summary.exampleKey],
    );
  }
  return out;
}

function listExamples(route: CollectionRoute, summary: CollectionSummary): Record<string, string> {
  const given = route.examples ?? {};
  const found: Record<string, string> = {};
  let partition = ALL_PARTITION;
  if (route.partitionParam) {
    partition = given[route.partitionParam] ?? summary.examplePartition ?? ALL_PARTITION;
    if (given[route.partitionParam] === undefined && summary.examplePartition !== undefined) {
      found[route.partitionParam] = partition;
    }
  } else if (route.partition) {
    const defaults = parseParams(route.query, {});
    if (defaults.ok) partition = route.partition(defaults.value);
  }
  for (const [param, filter] of Object.entries(route.filters ?? {})) {
    // the example partition's value, else any partition's (a small world may leave a filter empty in one)
    const value =
      summary.exampleFilters[partition]?.[filter] ??
      Object.values(summary.exampleFilters).find((f) => f[filter] !== undefined)?.[filter];
    if (given[param] === undefined && value !== undefined) found[param] = value;
  }
  return found;
}

async function liveManifest(storage: Storage, pointer: Pointer): Promise<Manifest> {
  const manifest = await readManifest(storage, pointer.release_id).catch((error: unknown) => {
    // A live release of an older format cannot be compared with; it is still replaced as usual.
    if (error instanceof AppError && /not a valid release file/.test(error.message)) return undefined;
    throw error;
  });
  if (manifest) return manifest;
  throw new AppError(
    `${CURRENT_KEY} names release ${pointer.release_id}, whose manifest is missing or unreadable.`,
    {
      hint: `Restore that release, or delete ${CURRENT_KEY} under ${storage.location} and publish again.`,
      stage: "publish",
    },
  );
}

async function readRunDate(db: Db): Promise<string> {
  const rows = await db.all<{ run_date: unknown; dates: number }>(
    "SELECT max(run_date) AS run_date, count(DISTINCT run_date)::INTEGER AS dates FROM score_quality",
  );
  const row = rows[0];
  const value = row?.run_date;
  const day = value instanceof Date ? isoDay(value) : typeof value === "string" ? value.slice(0, 10) : "";
  if (row?.dates !== 1 || !/^\d{4}-\d{2}-\d{2}$/.test(day)) {
    throw new AppError(`score_quality must hold exactly one run date, found ${row?.dates ?? 0}.`, {
      hint: "Rerun the scores (pipeline/sql/score_quality.sql) for a single run date.",
      stage: "publish",
    });
  }
  return day;
}
