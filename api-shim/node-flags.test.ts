// The shim's Node.js flags are given where a shim is started (npm start, the production serving command), and every
// Node.js line the project supports accepts them, keeps the young generation at its floor and makes no
// memory-reducing collections when idle.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SHIM_NODE_FLAGS } from "./node-flags.ts";

const ROOT = new URL("..", import.meta.url);

/**
 * How long a process is watched while idle: V8's memory reducer starts 8 s (Node.js 20, 24) to 16 s (22) after a full
 * collection.
 */
const IDLE_MS = 30_000;

/**
 * Whether a Node.js process with `flags` makes a full collection to shrink its heap (V8 logs it "(reduce)") while idle,
 * after it made 40 MB of garbage and collected it: watched for IDLE_MS, or until it does.
 */
function reducesWhenIdle(flags: readonly string[]): Promise<boolean> {
  const script =
    "let keep = []; for (let i = 0; i < 200; i++) { keep.push(new Array(50000).fill(i)); if (keep.length > 20) keep.shift(); }" +
    `keep = null; globalThis.gc(); setTimeout(() => {}, ${IDLE_MS});`;
  const child = spawn(process.execPath, [...flags, "--expose-gc", "--trace-gc", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("Mark-Compact (reduce)")) child.kill();
    });
    child.on("error", reject);
    child.on("close", () => resolve(out.includes("Mark-Compact (reduce)")));
  });
}

describe("SHIM_NODE_FLAGS", () => {
  it("are given by npm start and by the serving command of docs/production.md", () => {
    const pkg = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toBe(`node ${SHIM_NODE_FLAGS.join(" ")} bin/projintel.js demo`);
    const production = readFileSync(new URL("docs/production.md", ROOT), "utf8");
    expect(production).toContain(`node ${SHIM_NODE_FLAGS.join(" ")} bin/projintel.js serve --release`);
  });

  it("keep this Node.js's young generation at 16 MB from the start", () => {
    const script =
      "const s = require('node:v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');" +
      "process.stdout.write(String(s.space_size / 2 ** 20))";
    expect(execFileSync(process.execPath, [...SHIM_NODE_FLAGS, "-e", script], { encoding: "utf8" })).toBe(
      "16",
    );
    // without them a process starts at 1 MB: the floor is what the flag adds
    expect(Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }))).toBeLessThan(16);
  });

  it(
    "keep V8 from collecting the heap to shrink it when the process goes idle",
    async (ctx) => {
      const withoutFlag = SHIM_NODE_FLAGS.filter((flag) => flag !== "--no-memory-reducer");
      const [withFlags, without] = await Promise.all([
        reducesWhenIdle(SHIM_NODE_FLAGS),
        reducesWhenIdle(withoutFlag),
      ]);
      expect(withFlags).toBe(false);
      // the control: the same process without the flag does. When V8 starts it depends on the allocation rate it
      // measured, which a busy machine moves (seen on Node.js 20: not within 20 s once in five runs, not within 30 s
      // once with two other suites beside it; on Node.js 22 not within four chances once in CI), so it has four
      // chances, and a control that never fires makes the run inconclusive: skipped and saying so, never passed.
      let reduced = without;
      for (let chance = 1; chance < 4 && !reduced; chance++) reduced = await reducesWhenIdle(withoutFlag);
      if (!reduced)
        ctx.skip(`V8 ${process.versions.v8} made no idle reducing collection without the flag either`);
      expect(reduced).toBe(true);
    },
    4 * IDLE_MS + 20_000,
  );
});
