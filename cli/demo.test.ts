// The demo replays the nights its state folder has not seen, up to 35 of them, ending on the demo's date; and
// `projintel demo` as a new user runs it (a small world): tonight's release answers first, the history replaces it
// in the background, a second start serves at once, all in a dozen lines on stdout.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
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

/**
 * A running `projintel demo`: its stdout so far, and a wait for a line matching a pattern. On `port` (set as a user
 * sets it, PROJINTEL_PORT), or on any free port (--port 0).
 */
function startDemo(stateDir: string, port?: number) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      CLI,
      "demo",
      ...["--repos", "300", "--nights", "3", "--date", DATE, "--state-dir", stateDir],
      ...(port === undefined ? ["--port", "0"] : []),
    ],
    {
      env: { PATH: process.env.PATH ?? "", ...(port === undefined ? {} : { PROJINTEL_PORT: String(port) }) },
    },
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

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function json(url: string): Promise<{ status: number; body: { data?: unknown } }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as { data?: unknown } };
}

/**
 * Every absolute link of the served release points at `own` (where this demo serves), none at the default port:
 * the OpenAPI servers, the docs page, the dataset index, a project's badge Markdown and page, the Atom feed.
 */
async function expectLinksTo(base: string, own: string, projectExample: string): Promise<void> {
  const openapi = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
    servers: { url: string }[];
  };
  expect(openapi.servers.map((s) => s.url)).toEqual([own]);
  expect(await (await fetch(`${base}/docs`)).text()).toContain(`Base URL: <code>${own}</code>`);
  const datasets = (await json(`${base}/api/v1/datasets`)).body.data as {
    files: { url: string }[];
    how_to_use: string[];
  };
  expect(datasets.files.filter((f) => !f.url.startsWith(`${own}/datasets/`))).toEqual([]);
  expect(datasets.how_to_use.join("\n")).toContain(own);
  const project = (await json(projectExample.slice("  curl '".length, -1))).body.data as {
    full_name: string;
    badge_markdown: string;
  };
  expect(project.badge_markdown).toBe(
    `[![AI quality](${own}/badges/${project.full_name}.svg)](${own}/p/${project.full_name})`,
  );
  const page = await (await fetch(`${base}/p/${project.full_name}`)).text();
  expect(page).toContain(`${own}/badges/${project.full_name}.svg`);
  const feed = await (await fetch(`${base}/api/v1/feed.atom`)).text();
  expect(feed).toContain(`"${own}/api/v1/feed.atom"`);
  for (const text of [JSON.stringify(openapi), JSON.stringify(datasets), page, feed]) {
    expect(text).not.toContain("localhost:8787");
  }
}

describe("projintel demo", () => {
  let stateDir: string;
  beforeAll(async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), "demo-test-"));
  });
  afterAll(() => rm(stateDir, { recursive: true, force: true }));

  it("serves tonight's release, replays the history behind it, then serves a second start at once", async () => {
    const port = await freePort();
    const demo = startDemo(stateDir, port);
    try {
      const serve = await demo.waitFor(/^ {2}serve {5}http:\/\/127\.0\.0\.1:\d+ answers/);
      const base = /http:\/\/127\.0\.0\.1:\d+/.exec(serve)?.[0] as string;
      expect(base).toBe(`http://127.0.0.1:${port}`);
      await demo.waitFor(/^Docs: /);
      const first = await json(`${base}/api/v1/status`);
      const examples = demo.lines().filter((l) => l.startsWith("  curl '"));
      expect(examples).toHaveLength(3);
      for (const line of examples) {
        const answer = await json(line.slice("  curl '".length, -1));
        expect([line, answer.status]).toEqual([line, 200]);
        expect(answer.body.data, line).not.toEqual([]);
      }
      await expectLinksTo(base, `http://localhost:${port}`, examples[2] as string);
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
