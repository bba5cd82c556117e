// A folder that costs a real pipeline run or publish to make, built once and shared by every test file that needs it:
// built under a lock into a folder under the OS temp dir named after a hash of the code and data that make it, so
// parallel test files build it once and a changed input builds it afresh. Each test file works on its own copy.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** How often a test file waiting for another's build looks for the result. */
const WAIT_POLL_MS = 200;
/** A lock older than this belongs to a builder that died: it is taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/**
 * The shared folder `name` made by `build` from the repository folders `inputs` (building it if no test file has yet
 * for these inputs). Never write into it: copy it with `privateCopy`.
 */
export async function sharedBuild(
  name: string,
  inputs: readonly string[],
  build: (dir: string) => Promise<void>,
): Promise<string> {
  const dir = path.join(os.tmpdir(), `projintel-${name}-${await hashOnce(inputs)}`);
  const done = path.join(dir, "state");
  if (await exists(done)) return done;
  const lock = `${dir}.lock`;
  // mkdir is atomic: whoever makes the lock builds; the others wait for the result
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (await exists(done)) return done;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
    }
  }
  try {
    if (await exists(done)) return done;
    const building = path.join(dir, `building-${process.pid}`);
    await rm(building, { recursive: true, force: true });
    await mkdir(building, { recursive: true });
    await build(building);
    await rename(building, done);
    return done;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/**
 * A fresh copy of a shared folder in a new temp folder named `prefix…`, for one test file to change as it likes.
 * Copied by one `cp` process: for the simulated release's 2,900 files Node's `fs.cp` spent 2.1–2.6 s of CPU (a
 * dozen calls a file from JavaScript), `cp -R` 0.4–0.6 s. Like `fs.cp`, it keeps modes and gives new times.
 */
export async function privateCopy(shared: string, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await promisify(execFile)("cp", ["-R", `${shared}/.`, dir]);
  return dir;
}

/** Removes a private copy, by one `rm` process (0.05–0.1 s of CPU for 2,900 files; `fs.rm` 0.25 s). */
export async function removeCopy(dir: string): Promise<void> {
  await promisify(execFile)("rm", ["-rf", dir]);
}

/**
 * Removes `dir` once this process has ended, however it ends: vitest stops its workers with SIGTERM, which runs no
 * exit handler. A detached `sh` reads a pipe only this process writes to, and removes the folder at its end of file.
 */
function removeWhenProcessEnds(dir: string): void {
  const child = spawn("sh", ["-c", 'cat >/dev/null; rm -rf "$1"', "sh", dir], {
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  // neither the child nor the pipe keeps this process alive
  child.unref();
  (child.stdin as unknown as { unref(): void }).unref();
}

/**
 * One private copy a test process makes at its first call and keeps for the files it runs next that only read it
 * (the unit tests of vitest's `shared` project run one after another in a worker's process): removed when the process
 * ends, its `cleanup` does nothing; a failed copy is tried again at the next call. `folderOf` names the copy's folder.
 */
export function copyPerProcess<T extends { cleanup(): Promise<void> }>(
  copy: () => Promise<T>,
  folderOf: (made: T) => string,
): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= copy().then(
      (value) => {
        removeWhenProcessEnds(folderOf(value));
        return { ...value, cleanup: async () => {} };
      },
      (error) => {
        made = undefined;
        throw error;
      },
    );
    return made;
  };
}

/**
 * The inputs' hash, read once a process: a worker of vitest's `shared` project runs many files that ask for the same
 * build (0.1–0.25 s of CPU and 600 files read each time), and the code it has loaded is the code of its first ask.
 */
const hashes = new Map<string, Promise<string>>();
function hashOnce(inputs: readonly string[]): Promise<string> {
  const key = inputs.join("\n");
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = inputsHash(inputs);
    hashes.set(key, hash);
  }
  return hash;
}

/**
 * A hash of every file under `inputs` (folders or files) but tests, and of today's date (nothing built survives a
 * day's change).
 */
async function inputsHash(inputs: readonly string[]): Promise<string> {
  const hash = createHash("sha256").update(new Date().toISOString().slice(0, 10));
  const walk = async (dir: string): Promise<void> => {
    if (!(await stat(dir)).isDirectory()) {
      hash.update(path.basename(dir)).update(await readFile(dir));
      return;
    }
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (!entry.name.endsWith(".test.ts")) hash.update(entry.name).update(await readFile(full));
    }
  };
  for (const input of inputs) await walk(path.join(ROOT, input));
  return hash.digest("hex").slice(0, 16);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
