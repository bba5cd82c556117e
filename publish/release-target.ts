// The steps of a publish that make it safe on any target, a bucket above all: which release id to write (a new one,
// or the incomplete release an interrupted publish of the same night left, to resume it), the check that every
// object of the release is stored with its size before the manifest and the pointer are written, and the upload of
// the night's public database beside the releases.
import { createReadStream, createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { statePaths } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import {
  gzippedKey,
  latestPublicDb,
  manifestBeside,
  PUBLIC_DB_GZIP_LEVEL,
  parsePublicDbFile,
  publicDbKey,
  publicDbManifestKey,
  publicDbPartKey,
  publicDbPaths,
  readManifestBeside,
} from "../core/public-db.ts";
import { compareKeys, type Storage, sha256File, tempPath } from "../core/storage.ts";
import {
  MANIFEST_FILE,
  type ManifestFile,
  PUBLISHING_FILE,
  releaseCreatedAt,
  releaseId,
  releaseKey,
  releasePrefix,
  runDateOfRelease,
} from "./layout.ts";
import { releaseIds } from "./prune.ts";

/** Most release ids tried for one run date and second ("-02" … "-99" on a clash). */
const MAX_CLASHES = 99;

export interface ReleaseToWrite {
  id: string;
  created: Date;
  /** Objects already under the release's prefix (path → bytes) when resuming an interrupted publish. */
  existing: Map<string, number> | undefined;
}

/**
 * The newest release folder of `runDate`, newer than the live release, is an interrupted publish of this night (killed
 * while storing its objects, or after its manifest but before the pointer): it is resumed — its id and creation time
 * kept, its manifest removed until written again, its stored objects listed so the writer keeps those with the right
 * sha256. Otherwise a new id, created now.
 */
export async function releaseToWrite(
  storage: Storage,
  runDate: string,
  now: Date,
  liveId: string | undefined,
): Promise<ReleaseToWrite> {
  const ids = await releaseIds(storage);
  const newest = ids.filter((id) => liveId === undefined || compareKeys(id, liveId) > 0).at(-1);
  if (newest !== undefined && runDateOfRelease(newest) === runDate) {
    await storage.delete(releaseKey(newest, MANIFEST_FILE));
    const prefix = releasePrefix(newest);
    const objects = await storage.listObjects(prefix);
    return {
      id: newest,
      created: releaseCreatedAt(newest),
      existing: new Map(objects.map((o) => [o.key.slice(prefix.length), o.bytes])),
    };
  }
  const taken = new Set(ids);
  for (let clash = 0; clash < MAX_CLASHES; clash++) {
    const id = releaseId(runDate, now, clash);
    if (!taken.has(id)) return { id, created: now, existing: undefined };
  }
  throw new AppError(`Too many releases for run date ${runDate} created at ${now.toISOString()}.`, {
    stage: "publish",
  });
}

/**
 * Lists the release's prefix and compares it with its files: every one must be there with its size, or the publish
 * fails before the manifest and pointer are written. Objects the listing finds beyond the files (left by an
 * interrupted publish of other data) are deleted. Returns how many were.
 */
export async function confirmStored(
  storage: Storage,
  id: string,
  files: readonly ManifestFile[],
): Promise<number> {
  const prefix = releasePrefix(id);
  const listed = new Map(
    (await storage.listObjects(prefix)).map((o) => [o.key.slice(prefix.length), o.bytes]),
  );
  const wrong = files.filter((f) => listed.get(f.path) !== f.bytes);
  if (wrong.length > 0) {
    const first = wrong[0] as ManifestFile;
    const found = listed.get(first.path);
    throw new AppError(
      `${wrong.length} of ${files.length} objects of release ${id} are not stored as written under ${storage.location}: ` +
        `${first.path} is ${found === undefined ? "missing" : `${found} bytes, not ${first.bytes}`}.`,
      {
        hint:
          found !== undefined && found > first.bytes
            ? // a streamed upload kept with its aws-chunked framing: the store wants checksums only when required
              "The pointer still names the previous release; this store keeps the checksum framing of streamed uploads: set AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED (or PROJINTEL_S3__CHECKSUM_MODE=when_required) and publish again."
            : "The pointer still names the previous release; publish again (it resumes) and check the storage's logs.",
        stage: "publish",
        kind: "transient",
      },
    );
  }
  const wanted = new Set(files.map((f) => f.path));
  const extra = [...listed.keys()].filter(
    (p) => !wanted.has(p) && p !== MANIFEST_FILE && p !== PUBLISHING_FILE,
  );
  for (const p of extra) await storage.delete(`${prefix}${p}`);
  return extra.length;
}

export type PublicDbUpload = "uploaded" | "unchanged" | "missing" | "in-state-folder";

/**
 * Uploads the night's public database (`<state>/public/<name>.duckdb`, the file the release names; by default the
 * night's latest build) to `public-db/<name>.duckdb` of a target other than the state folder, so a shim serving from
 * it answers POST /query from the same build: first the
 * history parts its manifest names that the target lacks (`public-db/parts/<name>.duckdb`; a part is named by its
 * rows, so one there already is the same, whichever runner built it), then the nightly part (skipped when the object
 * is there with the same size and sha256, and its gzipped copy too), then the manifest (`public-db/<run_date>.json`),
 * last. Each database object's gzipped copy (`<key>.gz`, what a shim downloads) is uploaded before it, so an object
 * there has its copy.
 */
export async function uploadPublicDb(
  storage: Storage,
  config: Parameters<typeof statePaths>[0],
  runDate: string,
  logger: Logger,
  fileName?: string,
): Promise<PublicDbUpload> {
  const stateRoot = statePaths(config).root;
  if (!isRemote(storage, config)) return "in-state-folder";
  const paths = publicDbPaths(stateRoot);
  const night = fileName ?? (await latestPublicDb(stateRoot, runDate)) ?? `${runDate}.duckdb`;
  const name = parsePublicDbFile(night)?.name ?? runDate;
  const file = path.join(paths.dir, night);
  const local = await stat(file).catch(() => undefined);
  if (!local) {
    logger.warn("no public database for this night: a shim serving this target cannot answer POST /query", {
      file,
    });
    return "missing";
  }
  const manifest = await readManifestBeside(file);
  let partsUploaded = 0;
  for (const part of manifest?.parts ?? []) {
    if (await storage.exists(publicDbPartKey(part.name))) continue;
    const partFile = paths.partFile(part.name);
    if (!(await stat(partFile).catch(() => undefined))) {
      // scored against another remote, which held the part (pipeline/public-db-parts.ts buildParts)
      throw new AppError(
        `The public database of ${runDate} reads the history part ${part.name}, which neither ${partFile} nor ${storage.location} holds.`,
        {
          hint: "Publish to the remote the night was scored against (PROJINTEL_REMOTE), or score the night again with this target as the remote.",
          stage: "publish",
        },
      );
    }
    await putWithGzipped(storage, publicDbPartKey(part.name), partFile, await sha256File(partFile));
    partsUploaded++;
  }
  if (partsUploaded > 0) logger.info("public database history parts uploaded", { parts: partsUploaded });
  const key = publicDbKey(name);
  const sha256 = await sha256File(file);
  const remote = await storage.stat(key);
  const unchanged =
    remote?.bytes === local.size && remote.sha256 === sha256 && (await storage.exists(gzippedKey(key)));
  if (!unchanged) await putWithGzipped(storage, key, file, sha256);
  if (manifest) {
    await storage.putFile(publicDbManifestKey(name), manifestBeside(file), {
      contentType: "application/json",
    });
  } else await storage.delete(publicDbManifestKey(name));
  return unchanged && partsUploaded === 0 ? "unchanged" : "uploaded";
}

/** Uploads the database file `file` as `key`, its gzipped copy first (made beside it, then removed). */
async function putWithGzipped(storage: Storage, key: string, file: string, sha256: string): Promise<void> {
  const gzipped = tempPath(`${file}.gz`);
  try {
    await pipeline(
      createReadStream(file),
      createGzip({ level: PUBLIC_DB_GZIP_LEVEL }),
      createWriteStream(gzipped),
    );
    await storage.putFile(gzippedKey(key), gzipped, {
      contentType: "application/gzip",
      sha256: await sha256File(gzipped),
    });
  } finally {
    await rm(gzipped, { force: true });
  }
  await storage.putFile(key, file, { contentType: "application/octet-stream", sha256 });
}

/** A target other than the state folder (a bucket, or another folder): it needs its own public databases. */
export function isRemote(storage: Storage, config: Parameters<typeof statePaths>[0]): boolean {
  return storage.location !== path.resolve(statePaths(config).root);
}
