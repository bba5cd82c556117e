// A child process's whole output and how it ended, for tests that run the CLI or a shell as a user would.
import type { ChildProcess } from "node:child_process";

export interface ChildOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects stdout and stderr until the child closes (the streams drained, so nothing is cut off). */
export function childOutput(child: ChildProcess): Promise<ChildOutput> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
