// The first nights of replayWorld's world (nightly/replay.testing.ts), replayed once and shared by every test file
// that starts from the same nights (test/shared-build.ts): the state folder after them is copied, and a simulator of
// the same world goes on at the next night's date, so a test replays only the nights it alone needs.
import { rename } from "node:fs/promises";
import { addDays, isoDay } from "../core/clock.ts";
import { type ReplayedWorld, replayWorld } from "../nightly/replay.testing.ts";
import { privateCopy, sharedBuild } from "./shared-build.ts";

/** What the nights are made of: a change to any of these files replays them again. */
const INPUTS = ["core", "nightly", "pipeline", "publish", "schemas", "sim", "data"];
/** The shared nights' GitHub token: the simulator that replays them is the building file's alone. */
const SHARED_TOKEN = "shared-replay";

/**
 * `nights` nights from `start`, every one scored in full and none published (replayWorld's `unpublished`), of which
 * the first `sharedNights` are copied from the shared build into `stateDir` and the rest replayed here. The simulator
 * returned is at the last night's date, as replayWorld leaves it; the report holds the nights replayed here only.
 * `stateDir` is a folder to be made under the OS temp folder (the copy is moved there).
 */
export async function replayUnpublishedSharing(options: {
  stateDir: string;
  start: string;
  nights: number;
  sharedNights: number;
  token: string;
}): Promise<ReplayedWorld> {
  const { start, sharedNights } = options;
  const shared = await sharedBuild(`replay-${start}-${sharedNights}-unpublished`, INPUTS, async (dir) => {
    const { sim } = await replayWorld({
      stateDir: dir,
      start,
      nights: sharedNights,
      token: SHARED_TOKEN,
      unpublished: true,
    });
    await sim.close();
  });
  // copied beside the state folder (both under the OS temp folder), then moved into its place
  await rename(await privateCopy(shared, "replayed-world-"), options.stateDir);
  const rest = options.nights - sharedNights;
  // the next night's date when nights remain, else the last shared night's
  const from = isoDay(addDays(new Date(`${start}T00:00:00Z`), rest > 0 ? sharedNights : sharedNights - 1));
  return replayWorld({
    stateDir: options.stateDir,
    start,
    from,
    nights: rest,
    token: options.token,
    unpublished: true,
  });
}
