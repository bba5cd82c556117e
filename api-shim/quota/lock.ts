// The embedded quota store owns its state folder: a lock file holding the owner's pid. A lock left by a process
// that no longer runs (kill -9) is stale and taken over, so a crash never blocks the next start. (Node has no
// flock; a pid reused by an unrelated process would look alive — the message then says which file to remove.)
import { open, readFile, rm } from "node:fs/promises";
import { AppError } from "../../core/errors.ts";

export interface HeldLock {
  release(): Promise<void>;
}

export async function acquireLock(file: string, owner: string): Promise<HeldLock> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, "wx", 0o600);
      try {
        await handle.write(`${process.pid}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { release: () => releaseLock(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const pid = await lockPid(file);
    if (pid !== undefined && isAlive(pid)) {
      throw new AppError(`${owner} is already used by another process (pid ${pid}, lock ${file}).`, {
        hint:
          "Run one shim per state folder, or run several with the Redis quota store " +
          "(PROJINTEL_QUOTA__STORE=redis PROJINTEL_REDIS__URL=redis://host:6379); " +
          `if pid ${pid} is not a shim, remove ${file}.`,
        stage: "serve",
      });
    }
    await rm(file, { force: true });
  }
  throw new AppError(`Could not take the lock ${file}: another process keeps taking it.`, {
    hint: "Start one shim at a time on a state folder.",
    stage: "serve",
  });
}

async function lockPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, "utf8").catch(() => "");
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  // This process holding it counts too: a second store in the same process must be refused like another shim.
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function releaseLock(file: string): Promise<void> {
  if ((await lockPid(file)) === process.pid) await rm(file, { force: true });
}
