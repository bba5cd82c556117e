// Atomic file writes: write a temp file beside the target, fsync, then rename over it, so a crash or a kill
// leaves either the old file or the new one, never half of one. The one implementation every writer uses.
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";

export interface AtomicWriteOptions {
  /** fsync the file before the rename and the folder after it (default true): durable across power loss. */
  sync?: boolean;
  /** Create the parent folder first (default true); callers that already made it skip the syscall. */
  mkdir?: boolean;
}

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const sync = options.sync ?? true;
  const dir = path.dirname(file);
  if (options.mkdir ?? true) await mkdir(dir, { recursive: true });
  const temp = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, "w");
    try {
      await handle.writeFile(data);
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (sync) await syncDir(dir);
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Moves a finished temp file (written by someone else, e.g. DuckDB's COPY) into place: fsync it, rename it, fsync
 * the folder. The target is either absent or complete, never half written.
 */
export async function commitTempFile(temp: string, file: string): Promise<void> {
  const handle = await open(temp, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncDir(path.dirname(file));
}

/**
 * Removes the temp files (`*.tmp`) a killed writer left anywhere under `root`; returns how many. A missing root
 * has none.
 */
export async function removeTempFiles(root: string): Promise<number> {
  const entries = await readdir(root, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const temps = entries.filter((name) => name.endsWith(".tmp"));
  await Promise.all(temps.map((name) => rm(path.join(root, name), { force: true })));
  return temps.length;
}

/** Makes a rename durable: the folder's entry list must reach the disk too. Not possible on Windows. */
export async function syncDir(dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A text file's contents, or undefined when it does not exist (any other failure is thrown). */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
