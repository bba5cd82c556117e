// A folder that costs a real pipeline run or publish to make, built once and shared by every test file that needs it:
// built under a lock into a folder under the OS temp dir named after a hash of the code and data that make it, so
// parallel test files build it once and a changed input builds it afresh. Each test file works on its own copy.
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

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
  const dir = path.join(os.tmpdir(), `projintel-${name}-${await inputsHash(inputs)}`);
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

/** A fresh copy of a shared folder in a new temp folder named `prefix…`, for one test file to change as it likes. */
export async function privateCopy(shared: string, prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await cp(shared, dir, { recursive: true });
  return dir;
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
