// The demo's first release on a fresh state folder: tonight alone, collected from every source into a state folder
// of its own, published there and then adopted by the real one (release folder, public database, both pointers), so
// the API answers within seconds while the 35 nights of history are replayed behind it into the real warehouse.
import { cp, mkdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { type Config, loadConfig, statePaths } from "../core/config.ts";
import { writeFileAtomic } from "../core/files.ts";
import type { Logger } from "../core/log.ts";
import { manifestBeside, publicDbPaths, readManifestBeside } from "../core/public-db.ts";
import type { RunManifest } from "../nightly/manifest.ts";
import { CURRENT_KEY, RELEASES } from "../publish/layout.ts";
import { openWarehouse } from "./context.ts";

/** The folder under the state folder holding the first night's own state until its release is adopted. */
export const FIRST_NIGHT_DIR = "first-night";

export interface FirstNight {
  manifest: RunManifest;
  release_id: string;
}

/** Runs tonight alone (every source) into <state>/first-night/, then adopts its release into <state>. */
export async function firstNightRelease(options: {
  config: Config;
  logger: Logger;
  date: string;
}): Promise<FirstNight> {
  const root = statePaths(options.config).root;
  const ownRoot = path.join(root, FIRST_NIGHT_DIR);
  // a first night a kill interrupted left its folder: start it over
  await rm(ownRoot, { recursive: true, force: true });
  const config = loadConfig({ overrides: { ...options.config, stateDir: ownRoot } });
  const { runNightly } = await import("../nightly/run.ts");
  const db = await openWarehouse(config);
  let manifest: RunManifest;
  try {
    manifest = await runNightly({ config, db, logger: options.logger, runDate: options.date, force: true });
  } finally {
    db.close();
  }
  const releaseId = await adoptRelease(ownRoot, root);
  await rm(ownRoot, { recursive: true, force: true });
  return { manifest, release_id: releaseId };
}

/**
 * Moves the live release and public database (its history parts too) of state folder `from` into state folder `to`,
 * then points `to`'s pointers at them: the data first, each pointer last and atomically, as a publish does. `from` is
 * left without them (it is removed next).
 */
export async function adoptRelease(from: string, to: string): Promise<string> {
  const releasePointer = await readFile(path.join(from, CURRENT_KEY), "utf8");
  const { release_id: releaseId } = JSON.parse(releasePointer) as { release_id: string };
  await mkdir(path.join(to, RELEASES), { recursive: true });
  await move(path.join(from, RELEASES, releaseId), path.join(to, RELEASES, releaseId));
  const [source, target] = [publicDbPaths(from), publicDbPaths(to)];
  const publicPointer = await readFile(source.pointer, "utf8");
  const { file } = JSON.parse(publicPointer) as { file: string };
  await mkdir(target.dir, { recursive: true });
  // the history parts and the manifest naming them first, then the nightly part that reads them
  const manifest = await readManifestBeside(path.join(source.dir, file));
  if (manifest?.parts?.length) await mkdir(target.partsDir, { recursive: true });
  for (const part of manifest?.parts ?? [])
    await move(source.partFile(part.name), target.partFile(part.name));
  if (manifest)
    await move(path.join(source.dir, manifestBeside(file)), path.join(target.dir, manifestBeside(file)));
  await move(path.join(source.dir, file), path.join(target.dir, file));
  await writeFileAtomic(target.pointer, publicPointer);
  await writeFileAtomic(path.join(to, CURRENT_KEY), releasePointer);
  return releaseId;
}

/**
 * Renames a file or folder into place: <state>/first-night/ is inside the state folder, so a release's thousand files
 * move at once (copying them took 1.5 s of CPU before the API could answer). Copies when `to` is on another device.
 */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await cp(from, to, { recursive: true });
  }
}
