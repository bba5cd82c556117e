// The datasets read by readers nobody here wrote, from the shim's URLs over loopback, in headless Chromium (Debian's
// chromium, driven by playwright-core): @duckdb/duckdb-wasm, its files served to the page locally, reading with a
// HEAD and ranged GETs as it does from any URL; hyparquet's asyncBufferFromUrl (the range reader behind a well-known
// dataset viewer); and apache-arrow; bundled for the page by esbuild. duckdb-wasm is pinned at 1.28.0 (DuckDB 0.9.1),
// the last release whose Parquet support is built in: later ones download it from extensions.duckdb.org at the first
// read_parquet, which this machine cannot reach. Every answer equals the same query on the warehouse; the reads use
// 206 responses, and a two-column projection transfers less than half of the file. Every how_to_use line of the
// dataset index is executed: the JavaScript ones in the page, the DuckDB ones by DuckDB on the files the URLs name
// (DuckDB's httpfs is an extension it cannot download here), the sha256 one on every file downloaded.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sqlLiteral } from "../core/db.ts";
import type { DatasetIndex } from "../publish/dataset-index.ts";
import { collectionSql } from "../publish/render-collection.ts";
import { launchChromium, skipWithoutChromium } from "./chromium.ts";
import { type SimApp, simApp } from "./sim-release.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The page and its script live under this path of the shim's origin, answered by the browser itself (route). */
const PAGE = "/__readers/";
/** duckdb-wasm's worker and module, served to the page from the installed package. */
const DUCKDB_WASM = path.join(ROOT, "node_modules/@duckdb/duckdb-wasm/dist");
const DUCKDB_FILES: Record<string, string> = {
  "duckdb-eh.wasm": "application/wasm",
  "duckdb-browser-eh.worker.js": "text/javascript",
};

/** What the page's script exposes: the readers' functions, as a user's bundle would import them. */
const ENTRY = `
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { tableFromIPC } from "apache-arrow";
import { AsyncDuckDB, VoidLogger } from "@duckdb/duckdb-wasm";
Object.assign(window, { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects, compressors, tableFromIPC });
// DuckDB in a worker, as duckdb-wasm's README starts it; duckdbRows(sql) answers rows as plain objects
const duckdb = new AsyncDuckDB(new VoidLogger(), new Worker("${PAGE}duckdb-browser-eh.worker.js"));
window.duckdbRows = async (sql) => {
  const connection = await (await window.duckdbReady).connect();
  try {
    return (await connection.query(sql)).toArray().map((row) => row.toJSON());
  } finally {
    await connection.close();
  }
};
window.duckdbReady = duckdb.instantiate("${PAGE}duckdb-eh.wasm").then(() => duckdb);
window.readersReady = true;
`;

/** Runs `sql` in duckdb-wasm in the page. */
function duckdbRows<T>(page: Page, sql: string): Promise<T[]> {
  return page.evaluate(
    (q) => (globalThis as never as { duckdbRows: (q: string) => Promise<unknown[]> }).duckdbRows(q),
    sql,
  ) as Promise<T[]>;
}

describe.skipIf(skipWithoutChromium)("the datasets read by real readers in Chromium", () => {
  let sim: SimApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let index: DatasetIndex;
  /** Responses the page got from the shim: URL, status, Content-Length. */
  const responses: { url: string; method: string; status: number; bytes: number }[] = [];

  /** The index with its URLs on the listening shim (the release names the public base URL). */
  const url = (file: { url: string }) => file.url.replace(/^https?:\/\/[^/]+/, base);
  const fileOf = (releasePath: string) => {
    const file = index.files.find((f) => f.path === releasePath);
    if (!file) throw new Error(`The dataset index lists no ${releasePath}.`);
    return file;
  };
  const bytesOf = (fileUrl: string) =>
    responses.filter((r) => r.url === fileUrl && r.method === "GET").reduce((sum, r) => sum + r.bytes, 0);
  /** The warehouse's figures the readers' answers are checked against. */
  const warehouse = {
    /** The most-starred project: the one whose history the readers read. */
    async topProject(): Promise<string> {
      const [top] = await sim.db.all<{ full_name: string }>(
        "SELECT full_name FROM projects ORDER BY stars DESC NULLS LAST, full_name LIMIT 1",
      );
      return top?.full_name as string;
    },
    /** A project's stars by night within `month` (YYYY-MM). */
    history(project: string, month: string) {
      return sim.db.all<{ date: string; stars: number }>(
        `SELECT date::VARCHAR AS date, stars::INTEGER AS stars FROM snapshots WHERE full_name = ${sqlLiteral(project)} AND strftime(date, '%Y-%m') = ${sqlLiteral(month)} ORDER BY date`,
      );
    },
    /** The records quality.parquet holds. */
    async qualityRows(): Promise<number | undefined> {
      const [counted] = await sim.db.all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM (${await collectionSql("dataset_quality")})`,
      );
      return counted?.n;
    },
  };

  beforeAll(async () => {
    sim = await simApp();
    base = await sim.app.listen({ port: 0, host: "127.0.0.1" });
    index = (await sim.get("/api/v1/datasets")).body.data;
    const script = await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: "js" },
      bundle: true,
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    browser = await launchChromium();
    const context = await browser.newContext();
    const duckdbFiles = new Map(
      await Promise.all(
        Object.keys(DUCKDB_FILES).map(
          async (name) => [name, await readFile(path.join(DUCKDB_WASM, name))] as const,
        ),
      ),
    );
    await context.route(`${base}${PAGE}**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(PAGE.length);
      const packaged = duckdbFiles.get(name);
      if (packaged) return route.fulfill({ contentType: DUCKDB_FILES[name], body: packaged });
      return name.endsWith(".js")
        ? route.fulfill({ contentType: "text/javascript", body: script.outputFiles[0]?.text ?? "" })
        : route.fulfill({
            contentType: "text/html",
            body: `<!doctype html><script type="module" src="readers.js"></script>`,
          });
    });
    page = await context.newPage();
    page.on("response", (r) => {
      if (r.url().includes(PAGE)) return;
      const length = Number(r.headers()["content-length"] ?? 0);
      responses.push({ url: r.url(), method: r.request().method(), status: r.status(), bytes: length });
    });
    await page.goto(`${base}${PAGE}index.html`);
    await page.waitForFunction(() => (globalThis as { readersReady?: boolean }).readersReady === true);
  }, 600_000);
  beforeEach(() => {
    responses.length = 0;
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  it("duckdb-wasm counts quality.parquet from its URL, with ranged reads, as the warehouse counts the records", async () => {
    const fileUrl = url(fileOf("datasets/quality.parquet"));
    const [{ n } = { n: -1 }] = await duckdbRows<{ n: number }>(
      page,
      `SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlLiteral(fileUrl)})`,
    );
    expect(n).toBe(await warehouse.qualityRows());
    const gets = responses.filter((r) => r.url === fileUrl && r.method === "GET");
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.every((r) => r.status === 206)).toBe(true);
  });

  it("duckdb-wasm reads one project's star history over the packed month, as the warehouse has it", async () => {
    const month = index.files.find((f) => f.name === "snapshots" && f.month !== undefined);
    const project = await warehouse.topProject();
    const history = await duckdbRows<{ date: string; stars: number }>(
      page,
      `SELECT strftime(date, '%Y-%m-%d') AS date, stars::INTEGER AS stars FROM read_parquet(${sqlLiteral(url(month as { url: string }))}) WHERE full_name = ${sqlLiteral(project)} ORDER BY date`,
    );
    expect(history.length).toBeGreaterThan(1);
    expect(history).toEqual(await warehouse.history(project, month?.month ?? ""));
  });

  // DuckDB 0.9 merges the ranges of column chunks less than 16 KiB apart into one read, so on this fixture's 50 KB
  // file it reads about all of it (more, with its footer probes); on a published file of real size it reads the two
  // columns' chunks. The half-of-the-file bound is asserted with hyparquet below.
  it("duckdb-wasm reads a projection of two columns with ranged reads only", async () => {
    const file = fileOf("datasets/projects.parquet");
    const fileUrl = url(file);
    // in the file's order (DuckDB keeps it), which is the one below
    const rows = await duckdbRows<{ full_name: string; stars: number }>(
      page,
      `SELECT full_name, stars::INTEGER AS stars FROM read_parquet(${sqlLiteral(fileUrl)})`,
    );
    const expected = await sim.db.all<{ full_name: string; stars: number }>(
      "SELECT full_name, stars::INTEGER AS stars FROM projects ORDER BY full_name, node_id",
    );
    expect(rows).toEqual(expected);
    const transferred = bytesOf(fileUrl);
    console.info(
      `duckdb-wasm, two-column projection of projects.parquet: ${transferred} of ${file.bytes} bytes`,
    );
    expect(
      responses.filter((r) => r.url === fileUrl && r.method === "GET").every((r) => r.status === 206),
    ).toBe(true);
  });

  it("runs the README's year of one project's history in duckdb-wasm over the month URLs the index lists", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    const example = /```sql\n([\s\S]*?read_parquet\(\[[\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const months = index.files.filter((f) => f.name === "snapshots" && f.month !== undefined).map(url);
    const project = sqlLiteral(await warehouse.topProject());
    const sql = (example as string)
      .replace(/read_parquet\(\[[\s\S]*?\]\)/, `read_parquet([${months.map(sqlLiteral).join(", ")}])`)
      .replace("'owner/name'", project)
      .replace(/;\s*$/, "");
    const history = await duckdbRows<{ date: string; stars: number; quality_score: number }>(
      page,
      `SELECT strftime(date, '%Y-%m-%d') AS date, stars::INTEGER AS stars, quality_score::INTEGER AS quality_score FROM (${sql}) ORDER BY date`,
    );
    const expected = await sim.db.all<{ date: string; stars: number; quality_score: number }>(
      `SELECT date::VARCHAR AS date, stars::INTEGER AS stars, quality_score::INTEGER AS quality_score FROM snapshots WHERE full_name = ${project} ORDER BY date`,
    );
    expect(history.length).toBeGreaterThan(1);
    expect(history).toEqual(expected);
  });

  it("hyparquet counts quality.parquet from its footer, as the warehouse counts the records", async () => {
    const fileUrl = url(fileOf("datasets/quality.parquet"));
    const rows = await page.evaluate(async (u) => {
      const w = globalThis as never as Record<string, (...a: unknown[]) => Promise<{ num_rows: bigint }>>;
      const file = await w.asyncBufferFromUrl?.({ url: u });
      return Number((await w.parquetMetadataAsync?.(file, { initialFetchSize: 16384 }))?.num_rows);
    }, fileUrl);
    expect(rows).toBe(await warehouse.qualityRows());
    expect(responses.filter((r) => r.url === fileUrl).map((r) => [r.method, r.status])).toEqual([
      ["HEAD", 200],
      ["GET", 206],
    ]);
  });

  it("hyparquet reads one project's star history from the packed month, as the warehouse has it", async () => {
    const month = index.files.find((f) => f.name === "snapshots" && f.month !== undefined);
    expect(month?.month).toBe(sim.runDate.slice(0, 7));
    const project = await warehouse.topProject();
    const history = await page.evaluate(
      async ({ u, project }) => {
        const w = globalThis as never as Record<string, (...a: unknown[]) => Promise<unknown>>;
        const file = await w.asyncBufferFromUrl?.({ url: u });
        const metadata = await w.parquetMetadataAsync?.(file, { initialFetchSize: 16384 });
        const rows = (await w.parquetReadObjects?.({
          file,
          metadata,
          columns: ["date", "full_name", "stars"],
          compressors: (globalThis as never as { compressors: unknown }).compressors,
        })) as { date: Date; full_name: string; stars: bigint | number }[];
        return rows
          .filter((r) => r.full_name === project)
          .map((r) => ({ date: new Date(r.date).toISOString().slice(0, 10), stars: Number(r.stars) }));
      },
      { u: url(month as { url: string }), project },
    );
    expect(history.length).toBeGreaterThan(1);
    expect(history).toEqual(await warehouse.history(project, month?.month ?? ""));
  });

  it("hyparquet reads a projection of two columns with ranges, less than half of the file", async () => {
    const file = fileOf("datasets/projects.parquet");
    const fileUrl = url(file);
    const rows = await page.evaluate(async (u) => {
      const w = globalThis as never as Record<string, (...a: unknown[]) => Promise<unknown>>;
      const f = await w.asyncBufferFromUrl?.({ url: u });
      const metadata = await w.parquetMetadataAsync?.(f, { initialFetchSize: 16384 });
      const read = (await w.parquetReadObjects?.({
        file: f,
        metadata,
        columns: ["full_name", "stars"],
        compressors: (globalThis as never as { compressors: unknown }).compressors,
      })) as { full_name: string; stars: bigint | number }[];
      return read.map((r) => ({ full_name: r.full_name, stars: Number(r.stars) }));
    }, fileUrl);
    const expected = await sim.db.all<{ full_name: string; stars: number }>(
      "SELECT full_name, stars::INTEGER AS stars FROM projects ORDER BY full_name, node_id",
    );
    expect(rows).toEqual(expected);
    const used = responses.filter((r) => r.url === fileUrl);
    expect(used.filter((r) => r.method === "GET").every((r) => r.status === 206)).toBe(true);
    const transferred = bytesOf(fileUrl);
    console.info(`two-column projection of projects.parquet: ${transferred} of ${file.bytes} bytes`);
    expect(transferred).toBeLessThan(file.bytes / 2);
  });

  it("reads the Arrow file with apache-arrow from its URL", async () => {
    const arrow = fileOf("datasets/quality.arrow");
    const read = await page.evaluate(async (u) => {
      const w = globalThis as never as {
        tableFromIPC: (
          r: Response,
        ) => Promise<{ numRows: number; getChild(n: string): { get(i: number): unknown } }>;
      };
      const table = await w.tableFromIPC(await fetch(u));
      return { rows: table.numRows, first: String(table.getChild("full_name").get(0)) };
    }, url(arrow));
    const expected = await sim.db.all<{ full_name: string }>(await collectionSql("dataset_quality"));
    expect(read).toEqual({ rows: expected.length, first: expected[0]?.full_name });
  });

  it("runs every how_to_use line of the index as written", async () => {
    const root = path.join(sim.stateDir, "releases", index.release_id);
    const local = (text: string) =>
      text.replace(/'https?:\/\/[^/']+\/(datasets\/[^']+)'/g, (_, p: string) =>
        sqlLiteral(path.join(root, p)),
      );
    const ran: string[] = [];
    for (const line of index.how_to_use) {
      if (line.startsWith("DuckDB")) {
        const sql = /: (SELECT .*;)$/.exec(line)?.[1];
        expect(sql, line).toBeDefined();
        const rows = await sim.db.all(local(sql as string));
        expect(rows.length, line).toBeGreaterThan(0);
        ran.push("duckdb");
      } else if (line.startsWith("JavaScript")) {
        // the code follows the line's label: "JavaScript, hyparquet (…): code" or "JavaScript, apache-arrow: code"
        const start = line.includes("): ") ? line.indexOf("): ") + 3 : line.indexOf(": ") + 2;
        const code = line.slice(start).replace(/'https?:\/\/[^/']+\//g, `'${base}/`);
        const result = await page.evaluate(async (source) => {
          const run = new Function(
            `return (async () => { ${source} return typeof rows !== "undefined" ? rows.length : table.numRows; })();`,
          );
          return (await run()) as number;
        }, code);
        expect(result, line).toBeGreaterThan(0);
        ran.push("javascript");
      } else if (line.startsWith("Each file's sha256")) {
        const checked = await page.evaluate(
          async (files) => {
            const hex = (b: ArrayBuffer) =>
              [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
            const out: boolean[] = [];
            for (const f of files)
              out.push(
                hex(await crypto.subtle.digest("SHA-256", await (await fetch(f.url)).arrayBuffer())) ===
                  f.sha256,
              );
            return out;
          },
          index.files.map((f) => ({ url: url(f), sha256: f.sha256 })),
        );
        expect(checked).toEqual(index.files.map(() => true));
        ran.push("sha256");
      } else {
        throw new Error(`No test runs this how_to_use line: ${line}`);
      }
    }
    expect(ran).toEqual(["duckdb", "duckdb", "duckdb", "javascript", "javascript", "sha256"]);
  });
});
