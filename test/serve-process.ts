// Runs the projintel CLI as a child process for a test: a command to its end (runCli), or `projintel serve` (real HTTP
// on a free loopback port) until stopped — resolved with its URL once it listens, rejected with its stderr if it
// exits first, its structured log lines (stderr) readable so a test can check what the shim reported.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { childOutput } from "./child-output.ts";

export const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything the shim wrote to stderr so far. */
  stderr(): string;
  /** The JSON log lines with this `msg` (every line when none is given), in the order written. */
  logs(msg?: string): Record<string, unknown>[];
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Runs `projintel <args>` to its end; resolves with its stdout, or rejects with its exit code and stderr. */
export async function runCli(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { code, stdout, stderr } = await childOutput(child);
  if (code !== 0) throw new Error(`projintel ${args.join(" ")} exited with code ${code}: ${stderr}`);
  return stdout;
}

export function startServe(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  const logs = (msg?: string) =>
    stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => msg === undefined || line.msg === msg);
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /API listening on (\S+)/.exec(stdout)?.[1];
      if (url) resolve({ url, child, stderr: () => stderr, logs, stop });
    });
    child.once("exit", (code) => reject(new Error(`projintel serve exited with code ${code}: ${stderr}`)));
  });
}
