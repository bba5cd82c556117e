// A shim serving from a remote (`serve --release s3://…`) answers POST /api/v1/query from a local file: before a
// release goes live, the public database of its night (`public-db/<run_date>.duckdb` on the remote) is downloaded
// into `<state>/public/` — to a temp file, its size verified, then renamed — so the query workers switch to it with
// the release. Only the files in use are kept: the served night's and the one before (queries still running on it).
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../../core/errors.ts";
import { commitTempFile, removeTempFiles } from "../../core/files.ts";
import { type Logger, silentLogger } from "../../core/log.ts";
import { publicDbKey, publicDbPaths, resolvePublicDb } from "../../core/public-db.ts";
import { type ObjectStat, type Storage, sha256File, tempPath } from "../../core/storage.ts";

export interface PublicDbMirror {
  /** Makes the night's public database local (downloading it once); resolves when queries can read it. */
  prepare(runDate: string): Promise<void>;
}

/** A night's public database file name (`<run_date>.duckdb`), the only files the mirror ever removes. */
const NIGHT_FILE = /^\d{4}-\d{2}-\d{2}\.duckdb$/;

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

  async function download(runDate: string): Promise<boolean> {
    const key = publicDbKey(runDate);
    const started = performance.now();
    const remote = await storage.stat(key);
    if (!remote) return false;
    const file = paths.fileFor(runDate);
    const reused = await matches(file, remote);
    if (!reused) {
      const temp = tempPath(file);
      try {
        if (!(await storage.getFile(key, temp))) return false;
        await verify(temp, remote, `${storage.location}/${key}`);
        await commitTempFile(temp, file);
      } finally {
        await rm(temp, { force: true });
      }
    }
    logger.info("public database ready", {
      run_date: runDate,
      bytes: remote.bytes,
      downloaded: !reused,
      ms: Math.round(performance.now() - started),
    });
    return true;
  }

  /** Removes every night's file but the served one, the one before it, and the one `current.json` names. */
  async function prune(): Promise<void> {
    const local = await resolvePublicDb(stateRoot).catch((error: unknown) => {
      // an unreadable current.json of a pipeline sharing the folder: remove nothing rather than its file
      logger.warn("public/current.json is unreadable; no old public database removed", {
        error: String(error),
      });
      return null;
    });
    if (local === null) return;
    const keep = new Set([...ready.map((d) => `${d}.duckdb`), ...(local ? [local.file] : [])]);
    for (const name of await readdir(paths.dir)) {
      if (NIGHT_FILE.test(name) && !keep.has(name)) await rm(path.join(paths.dir, name), { force: true });
    }
  }

  return {
    async prepare(runDate) {
      if (ready.at(-1) === runDate) return;
      if (!(await download(runDate))) {
        // An older publish that uploaded no public database: the release still goes live; queries get 503.
        logger.warn("the remote holds no public database for this night; POST /api/v1/query answers 503", {
          key: `${storage.location}/${publicDbKey(runDate)}`,
        });
        return;
      }
      ready.push(runDate);
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
