// The demo replays the nights its state folder has not seen, up to 35 of them, ending on the demo's date; and
// `projintel demo` as a new user runs it (a small world): tonight's release answers first, the history replaces it
// in the background, a second start serves at once, all in a dozen lines on stdout.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstNight } from "./demo.ts";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");
const DATE = "2026-11-20";

describe("firstNight", () => {
  it("replays the whole history on a fresh state folder", () => {
    expect(firstNight("2026-11-22", 35, undefined)).toBe("2026-10-19");
  });
  it("replays only the nights after the last one seen", () => {
    expect(firstNight("2026-11-22", 35, "2026-11-20")).toBe("2026-11-21");
  });
  it("runs only the demo's date again when it was seen already", () => {
    expect(firstNight("2026-11-22", 35, "2026-11-22")).toBe("2026-11-22");
  });
  it("starts afresh at most 35 nights back after a long pause", () => {
    expect(firstNight("2026-11-22", 35, "2026-01-01")).toBe("2026-10-19");
  });
});

/** A running `projintel demo`: its stdout so far, and a wait for a line matching a pattern. */
function startDemo(stateDir: string) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [CLI, "demo", "--repos", "300", "--nights", "3", "--date", DATE, "--port", "0", "--state-dir", stateDir],
    { env: { PATH: process.env.PATH ?? "" } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    lines: () => stdout.split("\n").filter(Boolean),
    stderr: () => stderr,
    async waitFor(pattern: RegExp, ms = 240_000): Promise<string> {
      const until = Date.now() + ms;
      for (;;) {
        const line = stdout.split("\n").find((l) => pattern.test(l));
        if (line) return line;
        if (child.exitCode !== null || Date.now() > until) {
          throw new Error(`no line ${pattern} in:\n${stdout}\nstderr:\n${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stop: () => {
      child.kill("SIGINT");
      return exited;
    },
  };
}

async function json(url: string): Promise<{ status: number; body: { data?: unknown } }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as { data?: unknown } };
}

describe("projintel demo", () => {
  let stateDir: string;
  beforeAll(async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), "demo-test-"));
  });
  afterAll(() => rm(stateDir, { recursive: true, force: true }));

  it("serves tonight's release, replays the history behind it, then serves a second start at once", async () => {
    const demo = startDemo(stateDir);
    try {
      const serve = await demo.waitFor(/^ {2}serve {5}http:\/\/127\.0\.0\.1:\d+ answers/);
      const base = /http:\/\/127\.0\.0\.1:\d+/.exec(serve)?.[0] as string;
      await demo.waitFor(/^Docs: /);
      const first = await json(`${base}/api/v1/status`);
      const examples = demo.lines().filter((l) => l.startsWith("  curl '"));
      expect(examples).toHaveLength(3);
      for (const line of examples) {
        const answer = await json(line.slice("  curl '".length, -1));
        expect([line, answer.status]).toEqual([line, 200]);
        expect(answer.body.data, line).not.toEqual([]);
      }
      const done = await demo.waitFor(/^ {2}history {3}3 nights replayed/);
      expect(done).toContain(`2026-11-18 to ${DATE}`);
      // the history's release is served as soon as it is published
      const later = await json(`${base}/api/v1/status`);
      expect(later.body.data).not.toEqual(first.body.data);
      expect(await demo.stop()).toBe(0);
      expect(demo.lines().map((l) => l.trim().split(/\s+/)[0])).toEqual([
        "demo",
        "simulator",
        "collect",
        "score",
        "publish",
        "serve",
        "history",
        "Try:",
        "curl",
        "curl",
        "curl",
        "Docs:",
        "history",
      ]);
      expect(demo.stderr()).toBe("");
      // the structured log went to the state folder instead, and tonight's own folder is gone
      expect((await readdir(path.join(stateDir, "logs"))).length).toBe(1);
      expect(await readdir(stateDir)).not.toContain("first-night");
    } finally {
      await demo.stop();
    }

    const again = startDemo(stateDir);
    try {
      await again.waitFor(/^ {2}serve {5}http/);
      expect(await again.waitFor(/^ {2}history/)).toBe(
        `  history   3 nights up to ${DATE}: nothing to replay`,
      );
      await again.waitFor(/^Docs: /);
      expect(await again.stop()).toBe(0);
    } finally {
      await again.stop();
    }
  }, 600_000);
});
