// A query worker process: DuckDB runs here, not in the shim, so a query that will not stop or eats memory
// costs a process the shim kills and replaces. Takes one query at a time over IPC; keeps the public database
// open until a query names another file (a new release), and opens one ahead of any query when the pool asks.
import { openQueryRunner, QueryError, type QueryRunner } from "../../core/query/index.ts";
import type { FromWorker, ToWorker, WorkerSettings } from "./protocol.ts";

const settings = JSON.parse(process.argv[2] ?? "{}") as WorkerSettings;
let open: { file: string; runner: QueryRunner } | undefined;
let runningId: number | undefined;

function send(message: FromWorker): void {
  process.send?.(message);
}

/** The database being opened: a query handed over during an open ahead waits for it rather than opening twice. */
let opening: { file: string; runner: Promise<QueryRunner> } | undefined;

async function runnerFor(file: string): Promise<QueryRunner> {
  if (open?.file === file) return open.runner;
  if (opening?.file === file) return opening.runner;
  // another file (a release switch under way): the open in progress ends first, then this one replaces it
  if (opening) await opening.runner.catch(() => undefined);
  if (open?.file === file) return open.runner;
  open?.runner.close();
  open = undefined;
  const runner = openQueryRunner({ file, memoryLimit: settings.memoryLimit, threads: settings.threads });
  opening = { file, runner };
  try {
    open = { file, runner: await runner };
    return open.runner;
  } finally {
    if (opening?.runner === runner) opening = undefined;
  }
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

async function openAhead(message: Extract<ToWorker, { type: "open" }>): Promise<void> {
  try {
    await runnerFor(message.file);
    send({ type: "opened", id: message.id });
  } catch (error) {
    send({ type: "failed", id: message.id, code: "unavailable", message: (error as Error).message });
  }
}

process.on("message", (message: ToWorker) => {
  if (message.type === "run") void run(message);
  else if (message.type === "open") void openAhead(message);
  else if (message.type === "interrupt" && message.id === runningId) open?.runner.interrupt();
});
// The shim went away (or closed the pool): nothing is left to answer.
process.on("disconnect", () => {
  open?.runner.close();
  process.exit(0);
});
send({ type: "ready" });
