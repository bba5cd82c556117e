// The fast path for every caller: requests a second of a small page (/api/v1/trending?window=7d&limit=10) and a large
// one (/api/v1/quality?domain=rag, 50 records) through the shim, anonymous and with a key, against a bare node:http
// server returning the same bytes — wrk with 1 thread and 50 connections, each server in its own process, the servers
// on one core and wrk on the other (wrk.ts PINNING); in each round the shim and both baselines are loaded in turn
// second by second (wrk.ts interleaved), anonymous, then the same keyed; medians of 3 rounds. Each ratio compares the
// two servers under the same requests: node:http is sent the Authorization header too when the shim is (a request with
// a key is 70 bytes longer, and Node's parser alone is measurably slower for it). The keyed shim against the anonymous
// node:http is reported beside. Target: every ratio at least 0.8. A second baseline sends the shim's own answer, its
// head as well as its body (`same_response`): the shim's head is about 560 bytes the spec asks for (CORS, X-RateLimit-*,
// ETag, Cache-Control, Vary), which cost node:http itself a fifth of its throughput on the small page (wrk parses
// every header, and the bytes cross the loopback); against it, the ratio is the shim's own cost. Beside requests a
// second, each server's CPU time per request (/proc/<pid>/stat around each run): on a machine shared with other work
// the throughput ratios move with the load, while the CPU a request costs moves much less.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { median } from "./measure.ts";
import { plainServerArgs, serveArgs, startChild } from "./shim.ts";
import { COMPARED_CONNECTIONS, interleaved, PINNING, type Share as Run, SLICES } from "./wrk.ts";

const PAGES = [
  { page: "small", path: "/api/v1/trending?window=7d&limit=10" },
  { page: "large", path: "/api/v1/quality?domain=rag" },
] as const;
/** Headers Node writes itself on every response, left out of the head the baseline is given. */
const NODE_OWN_HEADERS = ["date", "connection", "keep-alive", "content-length", "transfer-encoding"];

/** Needs a state folder holding a published release (the bench runner makes one). */
export async function benchFastPath(stateDir: string, options: { rounds?: number; seconds?: number } = {}) {
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 5;
  const shim = await startChild(
    serveArgs(stateDir),
    {
      PROJINTEL_QUOTA__ANONYMOUS: "1000000000",
      PROJINTEL_QUOTA__EMAIL: "1000000000",
      // a state folder benchmarked before may have used up the day's key creations of this address
      PROJINTEL_QUOTA__KEY_CREATIONS: "1000000",
    },
    { pinned: true },
  );
  const tmp = await mkdtemp(path.join(os.tmpdir(), "projintel-fast-"));
  try {
    const created = await fetch(`${shim.url}/api/v1/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.org" }),
    });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    const keyed = [`Authorization: Bearer ${key}`];
    const results = [];
    for (const { page, path: query } of PAGES) {
      const response = await fetch(shim.url + query);
      if (response.status !== 200) throw new Error(`shim answered ${response.status} for ${query}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      const bodyFile = path.join(tmp, `${page}.json`);
      await writeFile(bodyFile, bytes);
      // the shim's own head, but for what Node writes for every response (Date, Connection, Keep-Alive, Content-Length)
      const headFile = path.join(tmp, `${page}.head.json`);
      const head = Object.fromEntries(
        [...response.headers].filter(([name]) => !NODE_OWN_HEADERS.includes(name)),
      );
      await writeFile(headFile, JSON.stringify(head));
      const plain = await startChild(plainServerArgs(bodyFile), {}, { pinned: true });
      const same = await startChild(plainServerArgs(bodyFile, "", headFile), {}, { pinned: true });
      try {
        const target = (server: typeof shim) => ({ url: server.url + query, pid: server.child.pid });
        const targets = [target(shim), target(same), target(plain)] as const;
        // warm-up: the URL answered once by each caller, so both are served by the fast path
        await interleaved(targets, SLICES);
        await interleaved(targets, SLICES, { headers: keyed });
        const anonymous: Run[] = [];
        const withKey: Run[] = [];
        const bare: Run[] = [];
        const bareKeyed: Run[] = [];
        const sameHead: Run[] = [];
        const sameHeadKeyed: Run[] = [];
        for (let i = 0; i < rounds; i++) {
          const [ofShim, ofSame, ofPlain] = await interleaved(targets, seconds);
          anonymous.push(ofShim);
          sameHead.push(ofSame);
          bare.push(ofPlain);
          const [keyedShim, keyedSame, keyedPlain] = await interleaved(targets, seconds, { headers: keyed });
          withKey.push(keyedShim);
          sameHeadKeyed.push(keyedSame);
          bareKeyed.push(keyedPlain);
        }
        const ratio = (runs: Run[], of: (run: Run, plain: Run) => number, against = bare) =>
          Math.round(median(runs.map((r, i) => of(r, against[i] as Run))) * 1000) / 1000;
        const throughput = (r: Run, p: Run) => r.rps / p.rps;
        const cpu = (r: Run, p: Run) => p.cpu / r.cpu;
        results.push({
          page,
          query,
          body_bytes: bytes.length,
          anonymous_rps: anonymous.map((r) => Math.round(r.rps)),
          keyed_rps: withKey.map((r) => Math.round(r.rps)),
          plain_rps: bare.map((r) => Math.round(r.rps)),
          plain_keyed_rps: bareKeyed.map((r) => Math.round(r.rps)),
          anonymous_ratio: ratio(anonymous, throughput),
          keyed_ratio: ratio(withKey, throughput, bareKeyed),
          keyed_vs_anonymous_plain_ratio: ratio(withKey, throughput),
          cpu_us_per_request: {
            anonymous: anonymous.map((r) => r.cpu),
            keyed: withKey.map((r) => r.cpu),
            plain: bare.map((r) => r.cpu),
            plain_keyed: bareKeyed.map((r) => r.cpu),
          },
          anonymous_cpu_ratio: ratio(anonymous, cpu),
          keyed_cpu_ratio: ratio(withKey, cpu, bareKeyed),
          // node:http sending the shim's whole answer, its head too (CORS, X-RateLimit-*, ETag, Cache-Control, Vary)
          same_response: {
            head_bytes: Object.entries(head).reduce((sum, [k, v]) => sum + k.length + v.length + 4, 0),
            rps: sameHead.map((r) => Math.round(r.rps)),
            keyed_rps: sameHeadKeyed.map((r) => Math.round(r.rps)),
            anonymous_ratio: ratio(anonymous, throughput, sameHead),
            keyed_ratio: ratio(withKey, throughput, sameHeadKeyed),
            anonymous_cpu_ratio: ratio(anonymous, cpu, sameHead),
            keyed_cpu_ratio: ratio(withKey, cpu, sameHeadKeyed),
          },
        });
      } finally {
        plain.child.kill("SIGTERM");
        same.child.kill("SIGTERM");
      }
    }
    return {
      wrk: { threads: 1, connections: COMPARED_CONNECTIONS, seconds, slices: SLICES, rounds },
      pinned: PINNING ? `servers on cpu ${PINNING.server}, wrk on cpu ${PINNING.load}` : "no",
      load_average: (await readFile("/proc/loadavg", "utf8")).split(" ").slice(0, 3).join(" "),
      target_ratio: 0.8,
      pages: results,
    };
  } finally {
    shim.child.kill("SIGTERM");
    await rm(tmp, { recursive: true, force: true });
  }
}
