// Publishes one release: gate, render every route into releases/<id>/, write the manifest, flip
// releases/current.json (only once every file is written), then prune old releases.
import { type Clock, isoDay, systemClock } from "../core/clock.ts";
import { type Config, statePaths } from "../core/config.ts";
import type { Db } from "../core/db.ts";
import { AppError, inStage } from "../core/errors.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import { startProgress } from "../core/progress.ts";
import { formatTimestamp } from "./envelope.ts";
import { checkGate } from "./gate.ts";
import {
  CURRENT_KEY,
  FORMAT_VERSION,
  MANIFEST_FILE,
  type Manifest,
  type Pointer,
  readManifest,
  readPointer,
  releaseId,
  releaseKey,
  releasePrefix,
} from "./layout.ts";
import { pruneReleases } from "./prune.ts";
import { countQualityRows } from "./quality.ts";
import { createReleaseWriter, sha256 } from "./release-writer.ts";
import { ROUTES } from "./routes.ts";
import { createLocalStorage, type Storage } from "./storage.ts";

export interface PublishOptions {
  db: Db;
  config: Pick<Config, "stateDir" | "publish">;
  /** Defaults to a local folder: the state folder (releases live under its releases/). */
  storage?: Storage;
  clock?: Clock;
  logger?: Logger;
  /** Publish even when the project count shrank below config.publish.minShareOfPrevious of the live one. */
  force?: boolean;
}

export interface PublishReport {
  releaseId: string;
  runDate: string;
  createdAt: string;
  projects: number;
  /** Projects per domain, all 30 domains. */
  byDomain: Record<string, number>;
  files: number;
  bytes: number;
  previous: { releaseId: string; projects: number } | undefined;
  /** Set when --force let a shrunken release through, saying by how much. */
  forced: string | undefined;
  /** Release ids deleted by pruning, oldest first. */
  pruned: string[];
}

export async function publishRelease(options: PublishOptions): Promise<PublishReport> {
  const { db, config } = options;
  const storage = options.storage ?? createLocalStorage(statePaths(config).root);
  const clock = options.clock ?? systemClock;
  const logger = (options.logger ?? silentLogger).child({ stage: "publish" });
  const created = clock.now();

  const counts = await countQualityRows(db);
  const pointer = await readPointer(storage);
  const previous = await previousCounts(storage, pointer);
  const forced = checkGate({
    projects: counts.total,
    previous,
    minShareOfPrevious: config.publish.minShareOfPrevious,
    force: options.force ?? false,
  });
  if (forced) logger.warn(forced);

  const runDate = await readRunDate(db);
  const id = await freeReleaseId(storage, runDate, created);
  const prefix = releasePrefix(id);
  logger.info("publishing release", { release_id: id, run_date: runDate, projects: counts.total });
  let manifest: Manifest;
  try {
    const writer = createReleaseWriter(storage, prefix);
    const progress = startProgress(logger, "publish:render", counts.total);
    const quality: Record<string, number> = {};
    for (const route of ROUTES) {
      const byDomain = await route.render(
        {
          db,
          timestamp: formatTimestamp(created),
          canonicalPages: config.publish.canonicalPages,
          onDomain: (_domain, records) => progress.tick(records),
        },
        (file) => writer.write(file.path, file.body),
      );
      if (route.endpoint === "GET /api/v1/quality") Object.assign(quality, byDomain);
    }
    const files = await writer.finish();
    progress.done({ files: files.length });
    manifest = {
      format: FORMAT_VERSION,
      release_id: id,
      run_date: runDate,
      created_at: formatTimestamp(created),
      counts: { projects: counts.total, quality },
      files,
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`, "utf8");
    await storage.put(releaseKey(id, MANIFEST_FILE), manifestBytes);
    const next: Pointer = {
      format: FORMAT_VERSION,
      release_id: id,
      run_date: runDate,
      created_at: manifest.created_at,
      manifest_sha256: sha256(manifestBytes),
    };
    await storage.putPointer(CURRENT_KEY, `${JSON.stringify(next, null, 1)}\n`);
  } catch (error) {
    // The pointer still names the previous release; remove the partial one so it is never mistaken for a release.
    await storage
      .deletePrefix(prefix)
      .catch((cleanup: unknown) =>
        logger.warn("could not remove the partial release", { release_id: id, error: String(cleanup) }),
      );
    throw inStage("publish", error);
  }
  logger.info("release is live", { release_id: id, files: manifest.files.length });

  // The release is live whatever happens now: a failed prune is worth a warning, not a failed publish.
  const pruned = await pruneReleases(storage, id, config.publish.keepReleases).catch((error: unknown) => {
    logger.warn("could not prune old releases; the next publish tries again", { error: String(error) });
    return [];
  });
  if (pruned.length > 0) logger.info("pruned old releases", { release_ids: pruned });
  return {
    releaseId: id,
    runDate,
    createdAt: manifest.created_at,
    projects: counts.total,
    byDomain: counts.byDomain,
    files: manifest.files.length + 1,
    bytes: manifest.files.reduce((n, f) => n + f.bytes, 0),
    previous,
    forced,
    pruned,
  };
}

async function previousCounts(storage: Storage, pointer: Pointer | undefined) {
  if (!pointer) return undefined;
  const manifest = await readManifest(storage, pointer.release_id);
  if (!manifest) {
    throw new AppError(`${CURRENT_KEY} names release ${pointer.release_id}, which has no manifest.`, {
      hint: `Restore that release or delete ${CURRENT_KEY} under ${storage.location}, then publish again.`,
      stage: "publish",
    });
  }
  return { releaseId: pointer.release_id, projects: manifest.counts.projects };
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

/** The release id for this run; a second publish within the same second gets a "-02" suffix. */
async function freeReleaseId(storage: Storage, runDate: string, created: Date): Promise<string> {
  for (let clash = 0; clash < 99; clash++) {
    const id = releaseId(runDate, created, clash);
    if ((await storage.list(releasePrefix(id))).length === 0) return id;
  }
  throw new AppError(`Too many releases for run date ${runDate} created at ${created.toISOString()}.`, {
    stage: "publish",
  });
}
