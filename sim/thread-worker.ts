// The simulator inside a worker thread (started by sim/thread.ts): serves until the parent says "close".
import { parentPort, workerData } from "node:worker_threads";
import { createLogger, type LogLevel } from "../core/log.ts";
import { type SimServerOptions, startSimServer } from "./server.ts";

const { logLevel, ...options } = workerData as Omit<SimServerOptions, "logger" | "wallClock"> & {
  logLevel: LogLevel;
};
const sim = await startSimServer({ ...options, logger: createLogger({ level: logLevel }) });
parentPort?.postMessage({ url: sim.url });
parentPort?.on("message", async (message) => {
  if (message !== "close") return;
  await sim.close();
  parentPort?.postMessage({ closed: true });
});
