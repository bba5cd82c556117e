// POST /api/v1/query through a real shim process (`projintel serve`) over a state folder holding a release: p50 and
// p99 of every workflow recipe GET /api/v1/workflows lists, then how a runaway query ends — repeat('x', 3e9) — with
// the time to its answer, the shim's own peak resident memory meanwhile, and the time until the next query answers.
import { QUERY_LIMITS } from "../core/query/limits.ts";
import { watchResident } from "./measure.ts";
import { serveArgs, startChild } from "./shim.ts";

const RUNAWAY = "SELECT repeat('x', 3000000000) AS s";
const RSS_SAMPLE_MS = 20;

interface Answer {
  status: number;
  ms: number;
  code?: string;
  truncated?: boolean;
  rows?: number;
}

async function post(url: string, body: unknown): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as {
    meta?: { truncated: boolean; count: number };
    detail?: { error: { code: string } };
  };
  const ms = performance.now() - started;
  if (json.detail) return { status: res.status, ms, code: json.detail.error.code };
  return { status: res.status, ms, truncated: json.meta?.truncated ?? false, rows: json.meta?.count ?? 0 };
}

export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 10) / 10;
}

/** Needs a state folder holding a published release and its public database. */
export async function benchQuery(stateDir: string, options: { runs?: number } = {}) {
  const runs = options.runs ?? 20;
  const shim = await startChild(serveArgs(stateDir), { PROJINTEL_QUOTA__ANONYMOUS: "1000000000" });
  try {
    const listed = (await (await fetch(`${shim.url}/api/v1/workflows`)).json()) as {
      data: { workflows: { name: string; example_request: { sql: string } }[] };
    };
    const recipes: Record<string, unknown> = {};
    for (const recipe of listed.data.workflows) {
      const first = await post(shim.url, recipe.example_request); // the first also starts the workers
      const times: number[] = [];
      let last = first;
      for (let i = 0; i < runs; i++) {
        last = await post(shim.url, recipe.example_request);
        times.push(last.ms);
      }
      times.sort((a, b) => a - b);
      recipes[recipe.name] = {
        status: last.status,
        ...(last.code ? { code: last.code } : { rows: last.rows, truncated: last.truncated }),
        first_ms: Math.round(first.ms),
        p50_ms: percentile(times, 50),
        p99_ms: percentile(times, 99),
      };
    }

    const watch = await watchResident(shim.child.pid, RSS_SAMPLE_MS);
    const runaway = await post(shim.url, { sql: RUNAWAY });
    const { before, peak } = await watch.stop();
    const restarted = performance.now();
    const next = await post(shim.url, { sql: "SELECT 1 AS one" });
    return {
      runs_per_recipe: runs,
      recipes,
      runaway: {
        sql: RUNAWAY,
        status: runaway.status,
        code: runaway.code,
        answered_ms: Math.round(runaway.ms),
        deadline_ms: QUERY_LIMITS.deadlineMs,
        shim_rss_before_mib: before,
        shim_rss_peak_mib: peak,
        next_query_status: next.status,
        next_query_ms: Math.round(performance.now() - restarted),
      },
    };
  } finally {
    shim.child.kill();
  }
}
