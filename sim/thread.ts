// Starts the simulator in a worker thread, so that it answers from its own core while the pipeline runs on the main
// thread (the demo and replay start it this way; on one thread the two take turns on one core).
import { Worker } from "node:worker_threads";
import type { LogLevel } from "../core/log.ts";
import type { SimServerOptions } from "./server.ts";

export interface SimThread {
  url: string;
  close(): Promise<void>;
}

export function startSimThread(
  options: Omit<SimServerOptions, "logger" | "wallClock"> & { logLevel?: LogLevel },
): Promise<SimThread> {
  const worker = new Worker(new URL("./thread-entry.mjs", import.meta.url), {
    workerData: { ...options, logLevel: options.logLevel ?? "warn" },
  });
  return new Promise((resolve, reject) => {
    const failed = (error: Error) =>
      reject(new Error(`The simulator's thread failed to start: ${error.message}`));
    worker.once("error", failed);
    worker.once("message", (message: { url: string }) => {
      worker.off("error", failed);
      resolve({
        url: message.url,
        close: () =>
          new Promise<void>((done) => {
            worker.once("message", () => void worker.terminate().then(() => done()));
            worker.postMessage("close");
          }),
      });
    });
  });
}
