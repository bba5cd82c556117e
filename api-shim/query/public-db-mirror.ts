// A shim serving from a remote (`serve --release s3://…`) answers POST /api/v1/query from local files: before a
// release goes live, the public database it names is made local in `<state>/public/` — the history parts its
// manifest (`public-db/<name>.json`) names that are not here yet, then the nightly part (`public-db/<name>.duckdb`,
// named by its bytes, so a night published twice is two files), each to a temp file (from its gzipped copy
// `<key>.gz` when the remote has one, about half the bytes), its size and hash verified, then renamed — so the query
// workers switch to it with the release and a switch downloads only what changed. Only the files in use are kept: the
// served release's and the one before (queries still running on it), and the parts they name.
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { AppError } from "../../core/errors.ts";
import { commitTempFile, removeTempFiles, writeFileAtomic } from "../../core/files.ts";
import { type Logger, silentLogger } from "../../core/log.ts";
import {
  gzippedKey,
  manifestBeside,
  PUBLIC_DB_NAME,
  parsePublicDbFile,
  parsePublicDbManifest,
  publicDbKey,
  publicDbManifestKey,
  publicDbPartKey,
  publicDbPaths,
  readManifestBeside,
  resolvePublicDb,
  type ServedPublicDb,
} from "../../core/public-db.ts";
import { type ObjectStat, type Storage, sha256File, tempPath } from "../../core/storage.ts";

export interface PublicDbMirror {
  /**
   * Makes the public database a release names local (downloading it once); resolves when queries can read it. A
   * release naming none (an older publish) reads `public-db/<run_date>.duckdb`.
   */
  prepare(release: ServedPublicDb): Promise<void>;
}

export async function createPublicDbMirror(options: {
  storage: Storage;
  stateRoot: string;
  logger?: Logger;
}): Promise<PublicDbMirror> {
  const { storage, stateRoot } = options;
  const logger = options.logger ?? silentLogger;
  const paths = publicDbPaths(stateRoot);
  // what a shim killed mid-download left behind
  await removeTempFiles(paths.dir);
  const ready: string[] = [];

  /**
   * Downloads `key` into `file` unless the file is that object already, from its gzipped copy when the remote has
   * one (unpacked as it arrives), else, or when that copy does not unpack to the object, the object itself; false
   * when the remote lacks it. `transferred` is what came over the wire.
   */
  async function fetchObject(
    key: string,
    file: string,
  ): Promise<{ bytes: number; transferred: number; downloaded: boolean } | false> {
    const remote = await storage.stat(key);
    if (!remote) return false;
    if (await matches(file, remote)) return { bytes: remote.bytes, transferred: 0, downloaded: false };
    const temp = tempPath(file);
    let transferred = 0;
    try {
      const gzipped = await storage.getStream(gzippedKey(key));
      const gunzip = createGunzip();
      const unpacked =
        gzipped &&
        (await pipeline(gzipped, gunzip, createWriteStream(temp))
          .then(() => verify(temp, remote, `${storage.location}/${gzippedKey(key)}`))
          .then(
            () => true,
            (error: unknown) => {
              logger.warn(
                "a gzipped public database copy does not unpack to its object; downloading the object",
                {
                  key: `${storage.location}/${gzippedKey(key)}`,
                  error: String(error),
                },
              );
              return false;
            },
          ));
      transferred = gunzip.bytesWritten;
      if (!unpacked) {
        if (!(await storage.getFile(key, temp))) return false;
        transferred += remote.bytes;
        await verify(temp, remote, `${storage.location}/${key}`);
      }
      await commitTempFile(temp, file);
    } finally {
      await rm(temp, { force: true });
    }
    return { bytes: remote.bytes, transferred, downloaded: true };
  }

  /**
   * The night's manifest and the parts it names that are not here (a part is named by its rows: one here is the
   * same), then the nightly part. The manifest is written beside the nightly part before it, so a reader that finds
   * the nightly part finds the parts it reads.
   */
  async function download(name: string): Promise<boolean> {
    const started = performance.now();
    const manifestKey = publicDbManifestKey(name);
    const manifestText = await storage.get(manifestKey);
    const manifest =
      manifestText &&
      parsePublicDbManifest(manifestText.toString("utf8"), `${storage.location}/${manifestKey}`);
    let partsDownloaded = 0;
    let bytes = 0;
    let transferred = 0;
    for (const part of manifest ? manifest.parts : []) {
      const file = paths.partFile(part.name);
      if (await stat(file).catch(() => undefined)) continue;
      await mkdir(paths.partsDir, { recursive: true });
      const got = await fetchObject(publicDbPartKey(part.name), file);
      if (!got) {
        throw new AppError(
          `The remote ${storage.location} lacks ${publicDbPartKey(part.name)}, which ${manifestKey} names.`,
          {
            hint: "Publish the night again: it uploads every part its public database reads.",
            stage: "serve",
          },
        );
      }
      partsDownloaded++;
      bytes += got.bytes;
      transferred += got.transferred;
    }
    const file = paths.fileFor(name);
    if (manifestText) await writeFileAtomic(manifestBeside(file), manifestText);
    else await rm(manifestBeside(file), { force: true }); // an older publish: one file holds every table
    const nightly = await fetchObject(publicDbKey(name), file);
    if (!nightly) return false;
    logger.info("public database ready", {
      run_date: PUBLIC_DB_NAME.exec(name)?.[1],
      name,
      bytes: nightly.bytes,
      downloaded: nightly.downloaded,
      parts: manifest ? manifest.parts.length : 0,
      parts_downloaded: partsDownloaded,
      parts_bytes: bytes,
      transferred_bytes: transferred + nightly.transferred,
      ms: Math.round(performance.now() - started),
    });
    return true;
  }

  /**
   * Removes every public database but the served release's, the one before it, and the one `current.json` names, with
   * their manifests, then every part none of the kept manifests names.
   */
  async function prune(): Promise<void> {
    const local = await resolvePublicDb(stateRoot).catch((error: unknown) => {
      // an unreadable current.json of a pipeline sharing the folder: remove nothing rather than its file
      logger.warn("public/current.json is unreadable; no old public database removed", {
        error: String(error),
      });
      return null;
    });
    if (local === null) return;
    const keep = new Set([...ready.map((name) => `${name}.duckdb`), ...(local ? [local.file] : [])]);
    const named = new Set<string>();
    for (const name of await readdir(paths.dir)) {
      if (!parsePublicDbFile(name)) continue;
      if (!keep.has(name)) {
        await rm(path.join(paths.dir, name), { force: true });
        await rm(path.join(paths.dir, manifestBeside(name)), { force: true });
        continue;
      }
      const manifest = await readManifestBeside(path.join(paths.dir, name));
      for (const part of manifest?.parts ?? []) named.add(`${part.name}.duckdb`);
    }
    for (const name of await readdir(paths.partsDir).catch(() => [] as string[])) {
      if (!named.has(name)) await rm(path.join(paths.partsDir, name), { force: true });
    }
  }

  return {
    async prepare(release) {
      const name =
        (release.public_db === undefined ? undefined : parsePublicDbFile(release.public_db)?.name) ??
        release.run_date;
      if (ready.at(-1) === name) return;
      if (!(await download(name))) {
        // An older publish that uploaded no public database: the release still goes live; queries get 503.
        logger.warn("the remote holds no public database for this release; POST /api/v1/query answers 503", {
          key: `${storage.location}/${publicDbKey(name)}`,
        });
        return;
      }
      ready.push(name);
      ready.splice(0, ready.length - 2);
      await prune();
    },
  };
}

/** The local file is the remote object already (a restart, or a release switched back to): no download. */
async function matches(file: string, remote: ObjectStat): Promise<boolean> {
  const local = await stat(file).catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? undefined : Promise.reject(error),
  );
  if (local?.size !== remote.bytes) return false;
  return remote.sha256 === undefined || (await sha256File(file)) === remote.sha256;
}

/** A downloaded file must have the object's size (and hash, when the remote recorded one) before it is used. */
async function verify(file: string, remote: ObjectStat, source: string): Promise<void> {
  const bytes = (await stat(file)).size;
  const sha256 = remote.sha256 && (await sha256File(file));
  if (bytes === remote.bytes && sha256 === remote.sha256) return;
  throw new AppError(
    `The download of ${source} holds ${bytes} bytes${sha256 ? ` (sha256 ${sha256})` : ""}, not the object's ${remote.bytes}${remote.sha256 ? ` (sha256 ${remote.sha256})` : ""}.`,
    {
      hint: "Check the state folder's free disk space; the download is tried again at the next pointer check.",
      stage: "serve",
    },
  );
}
