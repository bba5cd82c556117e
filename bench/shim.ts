// Shim throughput: requests per second of GET /api/v1/quality?domain=rag through the shim against a bare
// node:http server returning the same bytes from memory, measured side by side (their loads interleaved second by
// second, wrk.ts interleaved) in one run, each server in its own process and the load generator (wrk, 1 thread, 50
// connections) in a third, the servers on one core and wrk on the other (wrk.ts PINNING).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SHIM_NODE_FLAGS } from "../api-shim/node-flags.ts";
import { median } from "./measure.ts";
import { interleaved, onCore, SLICES } from "./wrk.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const CLI = path.join(ROOT, "bin", "projintel.js");
const QUERY = "/api/v1/quality?domain=rag";

/** How every bench starts a shim on a state folder: as production does (SHIM_NODE_FLAGS), on a free port, quietly. */
export function serveArgs(stateDir: string): string[] {
  return [...SHIM_NODE_FLAGS, CLI, "serve", "--state-dir", stateDir, "--port", "0", "--log-level", "warn"];
}

/**
 * How every bench starts its node:http baseline (plain-server.ts) on a body file: with the shim's own Node flags, so
 * that both servers run on the same runtime. Without them the baseline slows down for good after its first idle spells
 * as the shim did (node-flags.ts), and it idles while the shim is measured.
 */
export function plainServerArgs(bodyFile: string, ...rest: string[]): string[] {
  return [
    ...SHIM_NODE_FLAGS,
    "--import",
    "tsx",
    path.join(ROOT, "bench", "plain-server.ts"),
    bodyFile,
    ...rest,
  ];
}

export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  /** pinned: on the servers' core (wrk.ts PINNING), for a bench comparing servers under wrk pinned too. */
  options: { pinned?: boolean } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const [command, argv] = options.pinned
    ? onCore("server", process.execPath, args)
    : [process.execPath, args];
  const child = spawn(command, argv, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1], child });
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

/** Needs a state folder holding a published release (the bench runner makes one). */
export async function benchShim(stateDir: string, options: { rounds?: number; seconds?: number } = {}) {
  const rounds = options.rounds ?? 5;
  const seconds = options.seconds ?? 5;
  const shim = await startChild(
    serveArgs(stateDir),
    {
      PROJINTEL_QUOTA__ANONYMOUS: "1000000000",
    },
    { pinned: true },
  );
  const tmp = await mkdtemp(path.join(os.tmpdir(), "projintel-plain-"));
  try {
    const response = await fetch(shim.url + QUERY);
    if (response.status !== 200) throw new Error(`shim answered ${response.status} for ${QUERY}`);
    const bodyFile = path.join(tmp, "body.json");
    const bytes = Buffer.from(await response.arrayBuffer());
    await writeFile(bodyFile, bytes);
    const plain = await startChild(plainServerArgs(bodyFile), {}, { pinned: true });
    try {
      const target = (server: typeof shim) => ({ url: server.url + QUERY, pid: server.child.pid });
      const targets = [target(shim), target(plain)] as const;
      await interleaved(targets, SLICES); // warm-up both before measuring
      const shimRps: number[] = [];
      const plainRps: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const [ofShim, ofPlain] = await interleaved(targets, seconds);
        shimRps.push(Math.round(ofShim.rps));
        plainRps.push(Math.round(ofPlain.rps));
      }
      const ratios = shimRps.map((s, i) => s / (plainRps[i] as number));
      return {
        query: QUERY,
        body_bytes: bytes.length,
        shim_rps: shimRps,
        plain_rps: plainRps,
        median_shim_rps: median(shimRps),
        median_plain_rps: median(plainRps),
        median_ratio: Math.round(median(ratios) * 1000) / 1000,
        target_ratio: 0.8,
      };
    } finally {
      plain.child.kill("SIGTERM");
    }
  } finally {
    shim.child.kill("SIGTERM");
    await rm(tmp, { recursive: true, force: true });
  }
}
