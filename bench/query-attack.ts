// POST /api/v1/query under the issue 35 attack, through a real shim process (`projintel serve`): 50 loopback addresses
// (127.0.1.x) each keep 4 loops sending a recursive CTE that never ends on its own, while a victim from another address
// (127.0.0.200, which ran one query before) sends `SELECT count(*) FROM projects` once every 250 ms; the victim's answers
// (status, time) give the p50/p99 and how many were refused. A refused attacker loop sends again after the answer's
// Retry-After (BENCH_ATTACK_PAUSE_MS overrides it): a loop that never waits floods the shim's event loop with 503s, a
// request flood the per-address request quota answers, not the query pool.
import { request } from "node:http";
import { percentile } from "./query.ts";
import { serveArgs, startChild } from "./shim.ts";

const HEAVY = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r";
const LIGHT = "SELECT count(*) FROM projects";
/** How long a refused attacker loop waits: the Retry-After it was given, unless BENCH_ATTACK_PAUSE_MS says. */
const pauseAfterRefusal = (retryAfter: string | undefined) =>
  process.env.BENCH_ATTACK_PAUSE_MS !== undefined
    ? Number(process.env.BENCH_ATTACK_PAUSE_MS)
    : Number(retryAfter ?? 1) * 1000;
const VICTIM_GAP_MS = 250;
/** The attack runs this long before the victim's first query: every general worker is held by then. */
const WARMUP_MS = 5_000;

/** One POST from `localAddress`: its status and time. */
function post(
  url: string,
  localAddress: string,
  sql: string,
): Promise<{ status: number; ms: number; retryAfter?: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      `${url}/api/v1/query`,
      { method: "POST", localAddress, headers: { "content-type": "application/json" } },
      (res) => {
        res.resume();
        const retryAfter = res.headers["retry-after"];
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            ...(retryAfter ? { retryAfter } : {}),
          }),
        );
      },
    );
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(JSON.stringify({ sql }));
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Needs a state folder holding a published release and its public database. */
export async function benchQueryAttack(
  stateDir: string,
  options: { addresses?: number; loops?: number; tries?: number } = {},
) {
  const addresses = options.addresses ?? 50;
  const loops = options.loops ?? 4;
  const tries = options.tries ?? 40;
  const shim = await startChild(serveArgs(stateDir), { PROJINTEL_QUOTA__ANONYMOUS: "1000000000" });
  let attacking = true;
  const attackStatuses = new Map<number, number>();
  try {
    // the workers start with the first query
    await post(shim.url, "127.0.0.200", "SELECT 1");
    const attackers = Array.from({ length: addresses * loops }, async (_, i) => {
      const address = `127.0.1.${1 + (i % addresses)}`;
      while (attacking) {
        const { status, retryAfter } = await post(shim.url, address, HEAVY);
        attackStatuses.set(status, (attackStatuses.get(status) ?? 0) + 1);
        if (status === 429 || status === 503) await pause(pauseAfterRefusal(retryAfter));
      }
    });
    await pause(WARMUP_MS);
    const answers: { status: number; ms: number }[] = [];
    for (let i = 0; i < tries; i++) {
      answers.push(await post(shim.url, "127.0.0.200", LIGHT));
      await pause(VICTIM_GAP_MS);
    }
    attacking = false;
    shim.child.kill();
    await Promise.all(attackers);
    const answered = answers.filter((a) => a.status === 200).map((a) => a.ms);
    answered.sort((a, b) => a - b);
    // a refusal is no answer: the p99 is of every try, a refused one counted as never answered
    const all = answers
      .map((a) => (a.status === 200 ? a.ms : Number.POSITIVE_INFINITY))
      .sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    return {
      attack: {
        addresses,
        loops_per_address: loops,
        sql: HEAVY,
        statuses: Object.fromEntries(attackStatuses),
      },
      victim: {
        sql: LIGHT,
        tries,
        statuses,
        answered_p50_ms: percentile(answered, 50),
        answered_max_ms: Math.round(answered.at(-1) ?? 0),
        p99_ms_refusals_as_never: Number.isFinite(percentile(all, 99)) ? percentile(all, 99) : "never",
      },
    };
  } finally {
    attacking = false;
    shim.child.kill();
  }
}
