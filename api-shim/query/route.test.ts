// POST /api/v1/query over real HTTP against the simulated release: answers in the envelope with the night's
// public database, binds parameters, refuses bad bodies and statements without echoing them, runs every workflow
// recipe the API lists within the limits, keeps answering after its worker is killed, and bounds each caller.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePublicDb } from "../../core/public-db.ts";
import { openQueryRunner } from "../../core/query/index.ts";
import { queryMetaSchema, queryResultSchema } from "../../schemas/index.ts";
import { SIM_RELEASE_DATE } from "../../test/sim-release.ts";
import { type Answer, type QueryShim, queryShim, stoppedBy } from "./testing.ts";

const SLOW = "SELECT count(*) FROM range(1000000000) a, range(1000000) b WHERE a.range + b.range = -1";
let shim: QueryShim;

beforeAll(async () => {
  shim = await queryShim({ deadlineMs: 4_000, workers: 2, perCaller: 2 });
}, 600_000);
afterAll(() => shim?.close());

describe("POST /api/v1/query", () => {
  it("answers a SELECT in the envelope, from the served night's public database", async () => {
    const sql =
      "SELECT domain, count(*) AS projects FROM projects GROUP BY domain ORDER BY projects DESC, domain";
    const res = await shim.post({ sql });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000000");
    const runner = await openQueryRunner({ file: (await resolvePublicDb(shim.stateDir))?.path ?? "" });
    const expected = await runner.run(sql).finally(() => runner.close());
    expect(res.body.data).toEqual({
      run_date: SIM_RELEASE_DATE,
      columns: expected.columns,
      rows: expected.rows,
    });
    expect(queryResultSchema.parse(res.body.data)).toBeTruthy();
    expect(queryMetaSchema.parse(res.body.meta)).toMatchObject({
      count: expected.rows.length,
      truncated: false,
      query: {},
    });
  });

  it("binds positional parameters, scalars only and as many as the query takes", async () => {
    const res = await shim.post({
      sql: "SELECT ? + 1 AS n, $2 AS s, ? IS NULL AS missing",
      params: [41, "x", null],
    });
    expect([res.status, res.body.data.rows]).toEqual([200, [[42, "x", true]]]);
    const nested = await shim.post({ sql: "SELECT ? AS a", params: [[1, 2]] });
    expect([nested.status, nested.body.detail.error.code]).toEqual([422, "invalid_body"]);
    expect(nested.body.detail.error.message).toBe(
      "params must be a list of at most 20 scalars (text of at most 1000 characters, numbers, booleans or null).",
    );
    const count = await shim.post({ sql: "SELECT ? AS a, ? AS b", params: [1] });
    expect([count.status, count.body.detail.error]).toEqual([
      400,
      {
        code: "query_rejected",
        message: "The query has 2 parameter(s) but 1 value(s) were given.",
        request_id: expect.any(String),
      },
    ]);
  });

  it("cuts a long result at the row cap with meta.truncated", async () => {
    const res = await shim.post({ sql: "SELECT range AS n FROM range(5000)" });
    expect([res.status, res.body.meta.count, res.body.meta.truncated]).toEqual([200, 1000, true]);
    expect(res.body.data.rows.at(-1)).toEqual([999]);
  });

  it("refuses bodies that are not one query, without echoing them", async () => {
    const missing = await shim.post({});
    expect([missing.status, missing.body.detail.error.message]).toEqual([
      422,
      "sql is required and must be a non-empty text of at most 10000 characters.",
    ]);
    const bad = await shim.post("{not json");
    expect([bad.status, bad.body.detail.error.code]).toEqual([400, "invalid_json"]);
    const rejected = await shim.post({ sql: "SELECT * FROM projects WHERE owner = 'needle-7731' AND nope" });
    expect([rejected.status, rejected.body.detail.error.code]).toEqual([400, "query_rejected"]);
    expect(JSON.stringify(rejected.body)).not.toContain("needle-7731");
    const get = await fetch(`${shim.server.url}/api/v1/query`);
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    const text = await fetch(`${shim.server.url}/api/v1/query`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "SELECT 1",
    });
    expect(text.status).toBe(415);
    const large = await shim.post({ sql: `SELECT 1 -- ${"x".repeat(70_000)}` });
    expect([large.status, large.body.detail.error.code]).toEqual([413, "payload_too_large"]);
  });

  it("runs every workflow recipe GET /api/v1/workflows lists, within the limits", async () => {
    const listed = (await (await fetch(`${shim.server.url}/api/v1/workflows`)).json()) as {
      data: { workflows: { name: string; example_request: { sql: string } }[] };
    };
    expect(listed.data.workflows.length).toBeGreaterThanOrEqual(12);
    for (const recipe of listed.data.workflows) {
      const res = await shim.post(recipe.example_request);
      expect([recipe.name, res.status, res.body.meta?.truncated]).toEqual([recipe.name, 200, false]);
      expect(res.body.data.columns.length, recipe.name).toBeGreaterThan(0);
    }
  });

  it("answers 504 query_timeout at the deadline, and keeps answering after its worker is killed", async () => {
    const started = Date.now();
    const slow = await shim.post({ sql: SLOW });
    // 504, not 400: the query is valid, its time ran out; no Retry-After, as the same query would run as long again
    expect([slow.status, slow.body.detail.error.code, slow.body.detail.error.message]).toEqual([
      504,
      "query_timeout",
      "The query ran past its 4000 ms deadline and was stopped.",
    ]);
    expect(slow.headers.get("retry-after")).toBeNull();
    expect(Date.now() - started).toBeLessThan(stoppedBy(4_000));
    await shim.pool.start();

    const pending = shim.post({ sql: SLOW });
    // the workers are killed once one has the query, however long the request takes to get there on a busy machine
    await expect
      .poll(() => shim.pool.load(), { timeout: 30_000, interval: 10 })
      .toEqual({ running: 1, queued: 0 });
    for (const pid of shim.pool.pids()) process.kill(pid, "SIGKILL");
    const killed = await pending;
    expect([killed.status, killed.body.detail.error.code]).toEqual([400, "query_rejected"]);
    await shim.pool.start(); // the replacements load DuckDB (1-2 s) within the next query's deadline anyway
    const after = await shim.post({ sql: "SELECT 'alive' AS s" });
    expect([after.status, after.body.data.rows]).toEqual([200, [["alive"]]]);
  });

  it("refuses a query string with 422 rather than ignoring it", async () => {
    const res = await fetch(`${shim.server.url}/api/v1/query?limit=5`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT 1" }),
    });
    const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
    expect([res.status, body.detail.error.code, body.detail.error.message]).toEqual([
      422,
      "invalid_parameter",
      'POST /api/v1/query takes no query parameters (got "limit"); send its fields in the JSON body.',
    ]);
  });

  it("refuses a caller's third query in flight with 429 and Retry-After", async () => {
    const two = [shim.post({ sql: SLOW }), shim.post({ sql: SLOW })];
    // both arrived (running or waiting) before the third is sent
    await expect
      .poll(
        () => {
          const { running, queued } = shim.pool.load();
          return running + queued;
        },
        { timeout: 30_000, interval: 10 },
      )
      .toBe(2);
    const third = await shim.post({ sql: "SELECT 1" });
    expect([third.status, third.body.detail.error.code, third.headers.get("retry-after")]).toEqual([
      429,
      "rate_limit_exceeded",
      "1",
    ]);
    await Promise.all(two);
  });

  it("bounds an address over all its keys: its fourth query is 429 while another address is answered", async () => {
    const own = await queryShim({ deadlineMs: 4_000, workers: 4, perCaller: 2, perAddress: 3 });
    try {
      const keys: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await fetch(`${own.server.url}/api/v1/keys`, { method: "POST" });
        keys.push(((await created.json()) as { data: { key: string } }).data.key);
      }
      const as = (key: string) => ({ authorization: `Bearer ${key}` });
      const [k1, k2, k3] = keys as [string, string, string];
      const three = [
        own.post({ sql: SLOW }, as(k1)),
        own.post({ sql: SLOW }, as(k1)),
        own.post({ sql: SLOW }, as(k2)),
      ];
      await expect
        .poll(() => own.pool.load(), { timeout: 30_000, interval: 10 })
        .toEqual({ running: 3, queued: 0 });
      // a third key of the same address: under its own cap (2), over the address's (3)
      const fourth = await own.post({ sql: "SELECT 1" }, as(k3));
      expect([fourth.status, fourth.body.detail.error.code, fourth.headers.get("retry-after")]).toEqual([
        429,
        "rate_limit_exceeded",
        "1",
      ]);
      expect(fourth.body.detail.error.message).toBe(
        "Your address has 3 queries running or waiting over all its keys, the most one address may have; send the next when one has answered.",
      );
      // another client address (127.0.0.2, loopback too) is answered meanwhile
      const other = await postFrom("127.0.0.2", `${own.server.url}/api/v1/query`, { sql: "SELECT 42 AS n" });
      expect([other.status, other.body.data.rows]).toEqual([200, [[42]]]);
      // the three have done their part: closing the pool ends them at once instead of after their 4-s deadline on
      // three workers (the shim's close below closes it again, which does nothing)
      await own.pool.close();
      await Promise.all(three);
    } finally {
      await own.close();
    }
  }, 120_000);
});

/** POST of JSON from a given local address (node:http binds the client socket to it). */
function postFrom(
  localAddress: string,
  url: string,
  body: unknown,
): Promise<Pick<Answer, "status" | "body">> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", localAddress, headers: { "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}
