// A query worker process: DuckDB runs here, not in the shim, so a query that will not stop or eats memory
// costs a process the shim kills and replaces. Takes one query at a time over IPC; keeps the public database
// open until a query names another file (a new release).
import { openQueryRunner, QueryError, type QueryRunner } from "../../core/query/index.ts";
import type { FromWorker, ToWorker, WorkerSettings } from "./protocol.ts";

const settings = JSON.parse(process.argv[2] ?? "{}") as WorkerSettings;
let open: { file: string; runner: QueryRunner } | undefined;
let runningId: number | undefined;

function send(message: FromWorker): void {
  process.send?.(message);
}

async function runnerFor(file: string): Promise<QueryRunner> {
  if (open?.file === file) return open.runner;
  open?.runner.close();
  open = undefined;
  const runner = await openQueryRunner({
    file,
    memoryLimit: settings.memoryLimit,
    threads: settings.threads,
  });
  open = { file, runner };
  return runner;
}

async function run(message: Extract<ToWorker, { type: "run" }>): Promise<void> {
  runningId = message.id;
  try {
    let runner: QueryRunner;
    try {
      runner = await runnerFor(message.file);
    } catch (error) {
      send({ type: "failed", id: message.id, code: "unavailable", message: (error as Error).message });
      return;
    }
    const result = await runner.run(message.sql, message.limits, message.params);
    send({ type: "done", id: message.id, result });
  } catch (error) {
    if (error instanceof QueryError) {
      send({ type: "failed", id: message.id, code: error.code, message: error.message, hint: error.hint });
    } else {
      const text = error instanceof Error ? error.message : String(error);
      // e.g. a value too long for a JavaScript string: the caller's query, so refused, not a server failure
      send({ type: "failed", id: message.id, code: "query_rejected", message: `The query failed: ${text}` });
    }
  } finally {
    runningId = undefined;
  }
}

process.on("message", (message: ToWorker) => {
  if (message.type === "run") void run(message);
  else if (message.type === "interrupt" && message.id === runningId) open?.runner.interrupt();
});
// The shim went away (or closed the pool): nothing is left to answer.
process.on("disconnect", () => {
  open?.runner.close();
  process.exit(0);
});
send({ type: "ready" });
