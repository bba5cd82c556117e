// The shim's Node.js flags are given where a shim is started (npm start, the production serving command), and every
// Node.js line the project supports accepts them and keeps the young generation at its floor.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SHIM_NODE_FLAGS } from "./node-flags.ts";

const ROOT = new URL("..", import.meta.url);

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
});
