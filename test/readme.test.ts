// The README's first minute and the pages of docs/ it links: the README's table of endpoints is the route table's, and
// every example request in the README and those pages runs against a real release and returns data (a path parameter such as <slug> is filled with the example the release's
// manifest records for its route, as npm start prints them); every `projintel sql` example returns rows, and every
// `curl -X POST` example (keys, query, feedback) is answered 2xx with data by a real shim over its own copy.
import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../api-shim/server.ts";
import { createLocalStorage } from "../core/storage.ts";
import { readManifest, readPointer } from "../publish/layout.ts";
import { ROUTES } from "../publish/routes/index.ts";
import { withRoutesTable } from "../publish/routes-markdown.ts";
import { type SimApp, simApp, simRelease } from "./sim-release.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const README = path.join(ROOT, "README.md");
const DOCS = path.join(ROOT, "docs");

let sim: SimApp;
/** The README alone (its endpoint table and first commands) */
let readme: string;
/** The README and every page of docs/, whose examples must all run */
let pages: string;
beforeAll(async () => {
  sim = await simApp();
  readme = await readFile(README, "utf8");
  const docs = (await readdir(DOCS)).filter((name) => name.endsWith(".md")).sort();
  pages = [readme, ...(await Promise.all(docs.map((name) => readFile(path.join(DOCS, name), "utf8"))))].join(
    "\n",
  );
});
afterAll(() => sim.close());

/** Fills <name> placeholders with the example the release's manifest records for the route of that path. */
async function fill(request: string): Promise<string> {
  if (!request.includes("<")) return request;
  const storage = createLocalStorage(sim.stateDir);
  const pointer = await readPointer(storage);
  const manifest = pointer && (await readManifest(storage, pointer.release_id));
  const template = request.split("?")[0]?.replace(/<(\w+)>/g, "{$1}") ?? "";
  const route = ROUTES.find((r) => r.path === template);
  const examples = (route && manifest?.examples[route.name]) ?? {};
  return request.replace(/<(\w+)>/g, (_, name: string) => {
    const example = examples[name];
    if (example === undefined) throw new Error(`The release records no example ${name} for ${template}`);
    return encodeURIComponent(example);
  });
}

describe("README.md", () => {
  it("lists the route table's endpoints", async () => {
    const expected = withRoutesTable(readme, ROUTES);
    // UPDATE_README=1 rewrites the table after a deliberate change of the route table
    if (process.env.UPDATE_README === "1") await writeFile(README, expected);
    expect(readme).toBe(expected);
  });

  it("gives examples that answer with data", async () => {
    const examples = [
      ...pages.matchAll(
        /curl ((?:-[iI] |-H '[^']*' )*)'http:\/\/localhost:8787([^']+)'`?\s*(?:#\s*(\d{3}))?/g,
      ),
    ];
    expect(examples.length).toBeGreaterThanOrEqual(ROUTES.filter((r) => r.method === "GET").length);
    for (const [, flags = "", request = "", status] of examples) {
      const url = await fill(request);
      // -I asks with HEAD; -H adds a header (a Range, say)
      const method = /-I /.test(flags) ? "HEAD" : "GET";
      const headers = Object.fromEntries(
        [...flags.matchAll(/-H '([^:]+): ([^']*)'/g)].map((h) => [h[1] as string, h[2] as string]),
      );
      const res = await sim.app.inject({ url, method, headers });
      if (method === "HEAD") {
        expect([res.statusCode, res.body], url).toEqual([200, ""]);
        continue;
      }
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(status ? Number(status) : 200);
      if (status || !res.headers["content-type"]?.toString().startsWith("application/json")) continue;
      const body = res.json() as { data?: unknown; meta?: unknown };
      // a JSON document served as it is (the OpenAPI document, the plugin manifest) rather than an envelope
      const data = body.meta === undefined ? body : body.data;
      const empty =
        data === undefined ||
        data === null ||
        (Array.isArray(data) && data.length === 0) ||
        (typeof data === "object" && Object.keys(data).length === 0);
      expect(empty, `${url} answered no data`).toBe(false);
    }
  });

  it("gives shell examples that run and print data", async () => {
    const lines = [...pages.matchAll(/^```sh\n([\s\S]*?)^```/gm)]
      // a line ending in a backslash goes on on the next one
      .flatMap((block) => (block[1] ?? "").replace(/\\\n\s*/g, " ").split("\n"))
      .map((line) => line.replace(/\s+#\s.*$/, "").trim())
      .filter((line) => line !== "" && !line.startsWith("curl "));
    // npm start is tested as a new user runs it in cli/demo.test.ts; install and test are what CI itself runs
    expect(lines.filter((line) => line.startsWith("npm "))).toEqual(["npm install", "npm start", "npm test"]);
    const commands = lines.filter((line) => !line.startsWith("npm "));
    expect(commands.length).toBeGreaterThanOrEqual(6);
    const [top] = await sim.db.all<{ full_name: string }>(
      "SELECT full_name FROM projects ORDER BY stars DESC LIMIT 1",
    );
    // each distinct command runs once (a page may repeat one with or without npx); a SQL query the next test runs
    // with --json is checked there
    const ran = new Set<string>();
    for (const command of commands) {
      const words = shellWords(command.replace("OWNER/NAME", top?.full_name ?? ""));
      const at = words[0] === "npx" ? 1 : 0;
      expect(words[at], command).toBe("projintel");
      const args = words.slice(at + 1);
      const key = JSON.stringify(args);
      if (ran.has(key) || (args[0] === "sql" && sqlExamples().includes(args[1] ?? ""))) continue;
      ran.add(key);
      if (args[0] === "sql" || args[0] === "history") args.push("--state-dir", sim.stateDir);
      // a demo serves until stopped (served as a user runs it in test/demo-list.test.ts): here it publishes and ends,
      // into a folder of its own (<state>/list/) beside the fixture's
      if (args[0] === "demo") args.push("--no-serve", "--state-dir", sim.stateDir);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [path.join(ROOT, "bin", "projintel.js"), ...args],
        { cwd: ROOT },
      );
      // a table ends with its row count; anything else must print something
      const rows = /^(\d+) rows?( \(truncated\))?$/m.exec(stdout);
      if (rows) expect(Number(rows[1]), command).toBeGreaterThan(0);
      else expect(stdout.trim().split("\n").length, command).toBeGreaterThan(1);
    }
    // about ten CLI processes, a list of 426 projects rated three ways and a history replayed among them: a limit that
    // stops a hung command, generous enough for a busy machine (180 s was reached at load 15-20)
  }, 600_000);

  it("gives SQL examples that return rows", async () => {
    const queries = sqlExamples();
    expect(queries.length).toBeGreaterThan(0);
    for (const sql of queries) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [path.join(ROOT, "bin", "projintel.js"), "sql", sql, "--json", "--state-dir", sim.stateDir],
        { cwd: ROOT },
      );
      expect((JSON.parse(stdout) as { row_count: number }).row_count, sql).toBeGreaterThan(0);
    }
  });
});

/** The README's and docs' `npx projintel sql "…"` queries. */
function sqlExamples(): string[] {
  return [...pages.matchAll(/npx projintel sql "([^"]+)"/g)].map((m) => m[1] as string);
}

/** Splits a command line into words as a POSIX shell would for the README's examples: blanks, '…' and "…". */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

describe("README.md's POST examples", () => {
  it("are answered 2xx with data by a shim with keys, the query workers and feedback", async () => {
    const examples = [
      ...pages
        .replace(/\\\n\s*/g, " ")
        .matchAll(/curl -X POST http:\/\/localhost:8787([^\s`']+)((?:\s+-H '[^']*')*)(?:\s+-d '([^']*)')?/g),
    ];
    expect(examples.map((m) => m[1])).toEqual(
      expect.arrayContaining(["/api/v1/keys", "/api/v1/query", "/api/v1/feedback"]),
    );
    const release = await simRelease();
    const server = await startServer({ config: { ...release.config, host: "127.0.0.1", port: 0 } });
    try {
      for (const [example, pathname = "", headers = "", body] of examples) {
        const res = await fetch(server.url + pathname, {
          method: "POST",
          headers: Object.fromEntries(
            [...headers.matchAll(/-H '([^:]+): ([^']*)'/g)].map((h) => [h[1] as string, h[2] as string]),
          ),
          ...(body === undefined ? {} : { body }),
        });
        const text = await res.text();
        expect(res.status, `${example}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${example}: ${text.slice(0, 300)}`).toBeLessThan(300);
        const { data } = JSON.parse(text) as { data?: Record<string, unknown> };
        expect(Object.keys(data ?? {}).length, example).toBeGreaterThan(0);
        if (pathname === "/api/v1/query")
          expect((data?.rows as unknown[] | undefined)?.length, example).toBeGreaterThan(0);
      }
    } finally {
      await server.close();
      await release.cleanup();
    }
  });
});
