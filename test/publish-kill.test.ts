// A publish killed midway (a child process SIGKILLs itself halfway through writing a release, leaving a
// half-written temp file) after the night's public database was already rebuilt: the API and SQL still name the
// same night, and the next publish leaves no temp file or partial release behind.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../core/db.ts";
import { resolvePublicDb } from "../core/public-db.ts";
import { openQueryRunner } from "../core/query/index.ts";
import { createLocalStorage } from "../core/storage.ts";
import { readPointer } from "../publish/layout.ts";
import { publishRelease } from "../publish/release.ts";
import { advanceNight, type SimRelease, simRelease } from "./sim-release.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const module = (file: string) => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href);

let sim: SimRelease;
let served: string;
beforeAll(async () => {
  sim = await simRelease();
  served = (await readPointer(createLocalStorage(sim.stateDir)))?.run_date as string;
});
afterAll(() => sim.cleanup());

async function publishKilledAfter(puts: number): Promise<number | null> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import { mkdirSync, writeFileSync } from "node:fs";
       import path from "node:path";
       import { loadConfig } from ${module("core/config.ts")};
       import { openDb } from ${module("core/db.ts")};
       import { publishRelease } from ${module("publish/release.ts")};
       import { createLocalStorage } from ${module("core/storage.ts")};
       const root = ${JSON.stringify(sim.stateDir)};
       const storage = createLocalStorage(root);
       let puts = 0;
       const dying = { ...storage, async put(key, body, options) {
         if (++puts === ${puts}) {
           // what a writer killed between writing its temp file and renaming it leaves
           const file = path.join(root, key);
           mkdirSync(path.dirname(file), { recursive: true });
           writeFileSync(file + "." + process.pid + "-0123456789ab.tmp", "half");
           process.kill(process.pid, "SIGKILL");
         }
         return storage.put(key, body, options);
       } };
       const db = await openDb(root + "/warehouse.duckdb");
       await publishRelease({ db, storage: dying, config: loadConfig({ overrides: { stateDir: root } }), force: true });`,
    ],
    { cwd: ROOT, stdio: "ignore" },
  );
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

async function sqlRunDate(): Promise<string> {
  const pointer = await readPointer(createLocalStorage(sim.stateDir));
  const file = await resolvePublicDb(sim.stateDir, pointer?.run_date);
  const runner = await openQueryRunner({ file: file?.path as string });
  try {
    const result = await runner.run("SELECT max(run_date)::VARCHAR AS day FROM projects");
    return result.rows[0]?.[0] as string;
  } finally {
    runner.close();
  }
}

async function leftovers(): Promise<string[]> {
  const all = await readdir(sim.stateDir, { recursive: true });
  return all.filter((f) => f.endsWith(".tmp") || f.includes(".tmp."));
}

describe("a publish killed midway", () => {
  it("leaves the API and SQL on the same night, and the next publish cleans up", async () => {
    const next = await advanceNight(sim.stateDir, served);
    expect(await publishKilledAfter(40)).toBe(null); // killed by its signal
    expect((await readPointer(createLocalStorage(sim.stateDir)))?.run_date).toBe(served);
    expect(await sqlRunDate()).toBe(served);
    expect((await leftovers()).length).toBeGreaterThan(0);

    const db = await openDb(path.join(sim.stateDir, "warehouse.duckdb"));
    try {
      // the state folder as the default target, its objects not fsynced: what a power loss leaves is not tested here
      const storage = createLocalStorage(sim.stateDir, { syncObjects: false });
      const report = await publishRelease({ db, storage, config: sim.config, force: true });
      expect(report.runDate).toBe(next);
    } finally {
      db.close();
    }
    expect(await sqlRunDate()).toBe(next);
    expect(await leftovers()).toEqual([]);
    const folders = await readdir(path.join(sim.stateDir, "releases"));
    // the live release and the one before; the killed one's folder is gone
    expect(folders.filter((f) => f !== "current.json").length).toBe(2);
  });
});
