// Starts a real redis-server for a test: on a free loopback port, in a temp folder, with its append-only file on (as
// the key store requires) or persistence off altogether; freezes it (a stalled server) and stops it (SIGTERM, then
// waits for the exit). CI installs the server (.ci/run); nothing here reaches beyond 127.0.0.1.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server; it can be started again on the same port with restart(). */
  stop(): Promise<void>;
  /** Starts it again (stopping it first), with its persistence unchanged unless `options` say otherwise. */
  restart(options?: { persistent?: boolean }): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and commands go unanswered, as on a stalled server. */
  freeze(): void;
  /** Lets a frozen process go on (SIGCONT); it then answers what it was sent meanwhile. */
  thaw(): void;
}

/** Longest wait for redis-server to accept connections (it takes milliseconds; the margin is for a busy machine). */
const START_TIMEOUT_MS = 30_000;

/**
 * The Redis command timeout of every test that is not about that timeout (config.redis.commandTimeoutMs, or
 * PROJINTEL_REDIS__COMMAND_TIMEOUT_MS for a shim in its own process). At the 500-ms default a machine busy with other
 * work has held a command past it, and a test about something else got 503 "Request counting is unavailable"; the
 * timeout path itself is tested on purpose with a short one (api-shim/quota/redis.test.ts, a paused Redis).
 */
export const GENEROUS_COMMAND_TIMEOUT_MS = 30_000;

/** `persistent` (default true): an append-only file in the temp folder, so what was written survives restart(). */
export async function startRedisServer(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(tmpdir(), "redis-"));
  const port = await freePort();
  let persistent = options.persistent ?? true;
  let child: ChildProcess | undefined = await launch(dir, port, persistent);
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    running.kill("SIGCONT"); // a frozen server acts on the SIGTERM only once it runs
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    async restart(again = {}) {
      await stop();
      persistent = again.persistent ?? persistent;
      child = await launch(dir, port, persistent);
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
    freeze: () => void child?.kill("SIGSTOP"),
    thaw: () => void child?.kill("SIGCONT"),
  };
}

function launch(dir: string, port: number, persistent: boolean): Promise<ChildProcess> {
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    persistent ? "yes" : "no",
    "--dir",
    dir,
  ];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(
        new Error(
          `${error.message}. Install it (apt-get install redis-server). Output: ${output.slice(-500)}`,
        ),
      );
    };
    child.once("error", fail);
    child.once("exit", (code) => fail(new Error(`redis-server exited with code ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        child.stdout?.removeAllListeners("data");
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
  });
}

/** A port nothing listens on now (the kernel's pick for a socket closed at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
