// `projintel demo --list FILE --describe EXPORT` as the README runs it, on four real projects of best-of-ml-python's
// history over four and a half years (test/fixtures/reality/best-of-ml-python-history-years.csv): the list's nights
// replayed, published and served, its real star counts on the project pages over years (in Chromium too), its
// releases, transitions, badges, domain page and SQL endpoint; what the list does not have is empty or null, and
// /api/v1/status says so.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childOutput } from "./child-output.ts";
import { launchChromium, openPage, skipWithoutChromium } from "./chromium.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REALITY = path.join(ROOT, "test", "fixtures", "reality");
/** The list's export of 2025-06-26, whose descriptions the history lacks (--describe). */
const EXPORT = path.join(REALITY, "best-of-ml-python-2025-06-26.csv");
/**
 * The ten-night sample's rows (four projects, 2025-04-17 to 06-26) and the same projects' rows on the first night of
 * each half-year before, from the whole history: 20 nights since 2020-11-30, seconds to replay.
 */
const YEARS = path.join(REALITY, "best-of-ml-python-history-years.csv");
/** microsoft/nni's stars on each month's last night of that input (2020-11 to 2025-06, 56 months), as the list recorded. */
const NNI_MONTHS: Record<string, number> = {
  "2020-11": 8413,
  "2021-01": 8611,
  "2021-07": 9852,
  "2022-01": 10775,
  "2022-07": 11665,
  "2023-01": 12365,
  "2023-07": 13064,
  "2024-01": 13478,
  "2024-09": 13968,
  "2025-01": 14093,
  "2025-04": 14173,
  "2025-05": 14197,
  "2025-06": 14209,
};
/** BerriAI/litellm's stars on each of the sample's nights, as the list recorded them (the file's star_count). */
const LITELLM_STARS: Record<string, number> = {
  "2025-04-17": 20914,
  "2025-04-24": 21265,
  "2025-05-08": 22150,
  "2025-05-15": 22581,
  "2025-05-22": 23015,
  "2025-05-29": 23349,
  "2025-06-05": 23651,
  "2025-06-12": 23969,
  "2025-06-19": 24275,
  "2025-06-26": 24575,
};

let stateDir: string;
let child: ChildProcessWithoutNullStreams;
let stdout = "";
let stderr = "";
let base: string;

beforeAll(async () => {
  stateDir = await mkdtemp(path.join(os.tmpdir(), "demo-list-"));
  child = spawn(
    process.execPath,
    [
      ...[path.join(ROOT, "bin", "projintel.js"), "demo", "--list", YEARS, "--describe", EXPORT],
      ...["--state-dir", stateDir, "--port", "0"],
    ],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } },
  );
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  // the replay and the publish take seconds alone and minutes on a loaded machine: the wait is incidental
  const until = Date.now() + 300_000;
  for (;;) {
    const answers = /(http:\/\/\S+) answers/.exec(stdout);
    if (answers && stdout.includes("Ctrl-C stops")) {
      base = answers[1] as string;
      break;
    }
    if (child.exitCode !== null || Date.now() > until)
      throw new Error(`the demo did not serve:\n${stdout}\nstderr:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 320_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGINT");
    await exited;
  }
  await rm(stateDir, { recursive: true, force: true });
});

const get = async (url: string) => {
  const res = await fetch(base + url);
  expect(res.status, url).toBe(200);
  return res;
};
const data = async <T>(url: string) => ((await (await get(url)).json()) as { data: T }).data;

describe("projintel demo --list", () => {
  it("says what it replayed, into a folder of its own", () => {
    // apache/incubator-mxnet is not among the export's projects (the list's other half)
    expect(stdout).toContain(`53 of 73 rows described by ${path.relative(ROOT, EXPORT)}`);
    expect(stdout).toContain(
      "3 of 4 projects have a description; the others' domains are classified from names and packages alone",
    );
    expect(stdout).not.toContain("the history has no descriptions");
    expect(stdout).toContain("4 projects over 20 nights, 2020-11-30 to 2025-06-26");
    expect(stdout).toContain("4 projects listed on 2025-06-26, 20 nights of history");
    expect(stdout).toContain(`state ${path.join(stateDir, "list")}`);
    expect(stdout).toContain(`Open ${base}/p/BerriAI/litellm and ${base}/d/`);
  });

  it("prints requests to try that the list's release answers", async () => {
    const urls = [...stdout.matchAll(/curl '([^']+)'/g)].map((m) => m[1] as string);
    expect(urls.map((u) => new URL(u).pathname)).toEqual([
      "/api/v1/quality",
      "/api/v1/projects/berriai--litellm",
      "/api/v1/trending",
      "/api/v1/transitions",
      "/api/v1/status",
    ]);
    for (const url of urls) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      const { data: answer } = (await res.json()) as { data: unknown };
      // the last 30 nights may change no stage (the endpoint's default look-back); a project's first is not a change
      if (!url.includes("/transitions")) expect(answer, url).not.toEqual([]);
    }
  });

  it("serves the list's projects, a renamed one by its new name, with the stars the list recorded", async () => {
    const projects = await data<{ full_name: string; stars: number }[]>("/api/v1/projects?limit=10");
    expect(projects.map((p) => [p.full_name, p.stars]).sort()).toEqual([
      ["BerriAI/litellm", 24575],
      ["apache/mxnet", 20800],
      ["gunthercox/ChatterBot", 14353],
      ["microsoft/nni", 14209],
    ]);
    const detail = await data<{
      history: { from: string; to: string; stars: (number | null)[] };
      lifecycle_stage: string;
    }>("/api/v1/projects/berriai--litellm");
    expect([detail.history.from, detail.history.to]).toEqual(["2025-03-29", "2025-06-26"]);
    const nights = detail.history.stars.flatMap((stars, i) =>
      stars === null
        ? []
        : [[new Date(Date.parse("2025-03-29") + i * 86_400_000).toISOString().slice(0, 10), stars]],
    );
    expect(Object.fromEntries(nights)).toEqual(LITELLM_STARS);
  });

  it("leaves what the list did not record unknown (null) in the record, never 0", async () => {
    type Detail = { forks: number | null; fork: boolean | null; metrics: Record<string, number | null> };
    const figures = (d: Detail) => {
      const { watchers, open_issues, closed_issues, commits_30d, commits_90d, dependents } = d.metrics;
      return {
        forks: d.forks,
        fork: d.fork,
        watchers,
        open_issues,
        closed_issues,
        commits_30d,
        commits_90d,
        dependents,
      };
    };
    // a list records no fork flag and no tracked dependents; 30-day commits are read from the commit counts it
    // recorded (mxnet's flat)
    expect(figures(await data<Detail>("/api/v1/projects/berriai--litellm"))).toEqual({
      ...{ forks: 3310, fork: null, watchers: 125, open_issues: 1347, closed_issues: 4907 },
      ...{ commits_30d: 639, commits_90d: 1848, dependents: null },
    });
    const { commits_90d: _carried, ...mxnet } = figures(await data<Detail>("/api/v1/projects/apache--mxnet"));
    expect(mxnet).toEqual({
      ...{ forks: 6788, fork: null, watchers: 1067, open_issues: 1805, closed_issues: 7758 },
      ...{ commits_30d: 0, dependents: null },
    });
    expect(
      await query("SELECT full_name, is_fork, commits_30d, dependents FROM projects ORDER BY full_name"),
    ).toEqual([
      ["BerriAI/litellm", null, 639, null],
      ["apache/mxnet", null, 0, null],
      ["gunthercox/ChatterBot", null, 2, null],
      ["microsoft/nni", null, 0, null],
    ]);
  });

  it("gives each project's stars by month over every night of the list, a renamed one's under both names", async () => {
    type Monthly = { from: string; to: string; stars: (number | null)[]; downloads_monthly: unknown[] };
    const nni = await data<{ history_monthly: Monthly }>("/api/v1/projects/microsoft--nni");
    const { from, to, stars } = nni.history_monthly;
    expect([from, to, stars.length]).toEqual(["2020-11", "2025-06", 56]);
    const months = stars.flatMap((v, i) => {
      const m = 2020 * 12 + 10 + i;
      return v === null ? [] : [[`${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`, v]];
    });
    expect(Object.fromEntries(months)).toEqual(NNI_MONTHS);
    // apache/incubator-mxnet until the list recorded its new name: one project, its months since the first night
    const mxnet = await data<{ history_monthly: Monthly }>("/api/v1/projects/apache--mxnet");
    expect([mxnet.history_monthly.from, mxnet.history_monthly.stars[0]]).toEqual(["2020-11", 19134]);
    const litellm = await data<{ history_monthly: Monthly }>("/api/v1/projects/berriai--litellm");
    expect([litellm.history_monthly.from, litellm.history_monthly.stars[0]]).toEqual(["2024-01", 4193]);
  });

  it("keeps each GitHub release the list saw from the night it first saw it", async () => {
    const rows = await query(
      "SELECT version, first_seen::VARCHAR AS first_seen FROM releases WHERE full_name = 'BerriAI/litellm' ORDER BY first_seen LIMIT 2",
    );
    expect(rows).toEqual([
      ["1.16.12", "2024-01-04"],
      ["1.44.17-stable", "2024-09-05"],
    ]);
  });

  it("answers SQL over every night of the list's snapshots", async () => {
    expect(
      await query(
        "SELECT arg_max(full_name, date) AS name, count(*) AS nights, min(date)::VARCHAR AS first, min(stars) AS low, max(stars) AS high FROM snapshots GROUP BY node_id ORDER BY 1",
      ),
    ).toEqual([
      ["BerriAI/litellm", 13, "2024-01-04", 4193, 24575],
      ["apache/mxnet", 20, "2020-11-30", 19134, 20809],
      ["gunthercox/ChatterBot", 20, "2020-11-30", 10575, 14353],
      ["microsoft/nni", 20, "2020-11-30", 8413, 14209],
    ]);
  });

  it("records each project's first stage and its changes, and badges and the domain page show the same score", async () => {
    // the three listed since the list's first night, and litellm from the first night of the input that lists it
    const first = await query(
      "SELECT date::VARCHAR, count(*)::INTEGER FROM transitions WHERE from_stage IS NULL GROUP BY 1 ORDER BY 1",
    );
    expect(first).toEqual([
      ["2020-11-30", 3],
      ["2024-01-04", 1],
    ]);
    // the endpoint lists the changes (a first night is not one), as the table holds them
    const changes = await query(
      "SELECT count(*)::INTEGER FROM transitions WHERE from_stage IS NOT NULL AND date > DATE '2025-06-26' - 90",
    );
    const served = await data<unknown[]>("/api/v1/transitions?days=90&limit=100");
    expect(served.length).toBe(changes[0]?.[0]);
    const detail = await data<{ quality_score: number; quality_tier: string; domain: string }>(
      "/api/v1/projects/berriai--litellm",
    );
    const badge = await (await get("/badges/BerriAI/litellm.svg")).text();
    expect(badge).toContain(`${detail.quality_score} ${detail.quality_tier}`);
    const domainPage = await (await get(`/d/${detail.domain}`)).text();
    expect(domainPage).toContain("BerriAI/litellm");
  });

  it("leaves what the list does not have empty, and /api/v1/status says so", async () => {
    const status = await data<{
      tables: { name: string; rows: number }[];
      sources: { source: string; state: string; latest_run_date: string | null; rows: number | null }[];
    }>("/api/v1/status");
    const rows = Object.fromEntries(status.tables.map((t) => [t.name, t.rows]));
    expect([rows.posts, rows.papers]).toEqual([0, 0]);
    // absent: no row from the source on record (its rows null, not an invented 0); the list's nights are GitHub's
    const said = Object.fromEntries(
      status.sources.map((s) => [s.source, [s.state, s.latest_run_date, s.rows]]),
    );
    const absent = ["absent", null, null];
    expect(said).toEqual({
      arxiv: absent,
      dockerhub: absent,
      github: ["fresh", "2025-06-26", 4],
      github_rest: absent,
      hackernews: absent,
      huggingface: absent,
      npm: absent,
      pypi: absent,
      pypistats: absent,
    });
  });
});

describe("a second start of projintel demo --list", () => {
  it("serves the release of the same file at once instead of replaying it", async () => {
    const { port } = new URL(base);
    const again = spawn(
      process.execPath,
      [
        ...[path.join(ROOT, "bin", "projintel.js"), "demo", "--list", YEARS, "--describe", EXPORT],
        ...["--state-dir", stateDir, "--port", port, "--no-serve"],
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } },
    );
    const { code, stdout: out, stderr: err } = await childOutput(again);
    expect(code, err).toBe(0);
    const live = /release (\S+) was built from this file already: no replay/.exec(out);
    expect(live?.[1]).toBe((await data<{ release_id: string }>("/api/v1/status")).release_id);
    expect(out).not.toMatch(/^ *replay /m);
  }, 120_000);
});

describe("projintel demo --list with a file that is not a list's history", () => {
  it("says what is missing, exits 1 and leaves the warehouse and the served release as they were", async () => {
    const bad = path.join(stateDir, "not-a-history.csv");
    await writeFile(bad, "github_id,star_count\nBerriAI/litellm,24575\n");
    const before = (await data<{ release_id: string }>("/api/v1/status")).release_id;
    const run = spawn(
      process.execPath,
      [path.join(ROOT, "bin", "projintel.js"), "demo", "--list", bad, "--state-dir", stateDir, "--no-serve"],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } },
    );
    const { code, stderr: err } = await childOutput(run);
    expect(code).toBe(1);
    expect(err).toContain(`${bad} is not a list's history: it has no snapshot_date column.`);
    expect(
      (await readdir(path.join(stateDir, "list"))).filter((f) => /warehouse|history/.test(f)).sort(),
    ).toEqual(["history", "packed-history", "warehouse.duckdb"]);
    expect((await data<{ release_id: string }>("/api/v1/status")).release_id).toBe(before);
    expect(await query("SELECT count(*)::INTEGER FROM projects")).toEqual([[4]]);
  }, 120_000);
});

describe.skipIf(skipWithoutChromium)("a project's page of the list's release in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  it("draws the list's real star counts on the chart, one mark per night of the list", async () => {
    const { page, response, problems } = await openPage(browser, `${base}/p/BerriAI/litellm`);
    expect(response?.status()).toBe(200);
    expect(problems).toEqual([]);
    const chart = page.locator('svg[aria-label="Stars of BerriAI/litellm, 2025-03-29 to 2025-06-26"]');
    // each of the list's nights is a week or two from the next, so each is a dot: a move and a zero-length line
    const d = (await chart.locator('path.series[data-series="stars"]').getAttribute("d")) ?? "";
    expect(d.match(/M[\d.]+ [\d.]+h0/g)?.length).toBe(Object.keys(LITELLM_STARS).length);
  }, 60_000);

  it("charts a project's stars over the years the list holds, by month, dated from its first month to its last", async () => {
    const { page, response, problems } = await openPage(browser, `${base}/p/microsoft/nni`);
    expect(response?.status()).toBe(200);
    expect(problems).toEqual([]);
    const chart = page.locator('svg[aria-label="Stars of microsoft/nni by month, 2020-11 to 2025-06"]');
    // the first, middle and last of the 56 months under the axis
    expect(await chart.locator("text").allTextContents()).toEqual(
      expect.arrayContaining(["2020-11", "2023-02", "2025-06"]),
    );
    const d = (await chart.locator('path.series[data-series="stars"]').getAttribute("d")) ?? "";
    // the ten half-yearly months stand alone (a dot each), the last three months are one line of three points
    expect([d.match(/M/g)?.length, d.match(/h0/g)?.length, d.match(/L/g)?.length]).toEqual([11, 10, 2]);
    // the chart spans 56 months: its first dot at the plot's left edge, its last point at the right
    const xs = [...d.matchAll(/[ML]([\d.]+) /g)].map((m) => Number(m[1]));
    expect([xs[0], xs.at(-1)]).toEqual([60, 628]);
    expect(await page.locator("h2", { hasText: "Stars since 2020-11, by month" }).count()).toBe(1);
  }, 60_000);
});

/** Rows of a query to the demo's SQL endpoint, as arrays. */
async function query(sql: string): Promise<unknown[][]> {
  const res = await fetch(`${base}/api/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql }),
  });
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  return (JSON.parse(text) as { data: { rows: unknown[][] } }).data.rows;
}
