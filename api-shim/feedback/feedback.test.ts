// POST /api/v1/feedback over real HTTP: a receipt after the feedback is on disk (a kill -9 of the shim right after
// its 202s loses none), validation with exact messages, 20 a day per caller, and the contact and message never
// in the log.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, statePaths } from "../../core/config.ts";
import { memoryLogger } from "../../core/log.ts";
import { FEEDBACK_PER_DAY } from "../../schemas/index.ts";
import { anonymousQuotaKey } from "../caller.ts";
import { keyedHash, loadServerSecret } from "../keys/secret.ts";
import { type RunningServer, startServer } from "../server.ts";
import { type Fixture, movableClock, publishedFixture } from "../testing.ts";
import { feedbackFile, readFeedback } from "./store.ts";

let fixture: Fixture;
let server: RunningServer;
const logger = memoryLogger();
const clock = movableClock("2026-03-02T10:00:00Z");

beforeAll(async () => {
  fixture = await publishedFixture();
  const config = loadConfig({ overrides: { stateDir: fixture.root, host: "127.0.0.1", port: 0 } });
  server = await startServer({ config, clock, logger });
});
afterAll(async () => {
  await server?.close();
  await fixture?.cleanup();
});

async function send(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/api/v1/feedback`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON it expects
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe("POST /api/v1/feedback", () => {
  it("stores the feedback before answering 202 with its receipt, and logs neither message nor contact", async () => {
    const body = {
      kind: "data",
      message: "acme/ragkit is a vector database, not a RAG framework.",
      project: "acme/ragkit",
      contact: "reporter@example.com",
    };
    const res = await send(server.url, body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(/^fb_[0-9a-z]+$/),
        received_at: "2026-03-02T10:00:00+00:00",
        // the fixture's release does not track it: stored all the same, and the receipt says so (issue 35, item 7)
        note: "acme/ragkit is not a project this service tracks; the feedback is stored all the same (check the name with /api/v1/projects?q=<name>; a wish to track it is read as one).",
      },
      meta: { timestamp: "2026-03-02T10:00:00.000+00:00", count: 1, query: {} },
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const stored = await readFeedback(feedbackFile(statePaths({ stateDir: fixture.root }).root));
    // the sender as an HMAC keyed with the server secret: hashing every address without the secret finds nothing
    const paths = statePaths({ stateDir: fixture.root });
    const secret = await loadServerSecret(undefined, paths.secret);
    const caller = `feedback:${anonymousQuotaKey("127.0.0.1")}`;
    // the note is the receipt's word to the sender, not part of what is stored
    const { note: _note, ...receipt } = res.body.data;
    expect(stored).toEqual([{ ...receipt, ...body, caller: keyedHash(secret, caller).slice(0, 16) }]);
    expect(stored[0]?.caller).not.toBe(createHash("sha256").update(caller).digest("hex").slice(0, 16));
    const log = JSON.stringify(logger.lines);
    expect(log).toContain(res.body.data.id);
    expect(log).not.toContain("reporter@example.com");
    expect(log).not.toContain("vector database");
  });

  it.each([
    [{ message: "hi" }, "kind is required and must be one of: bug, data, feature, other."],
    [{ kind: "praise", message: "hi" }, "kind must be one of: bug, data, feature, other."],
    [{ kind: "bug", message: "  " }, "message must be a non-empty text of at most 4000 characters."],
    [
      { kind: "bug", message: "x".repeat(4001) },
      "message must be a non-empty text of at most 4000 characters.",
    ],
    [
      { kind: "bug", message: "hi", project: "not a/project/ref" },
      "project must be a project as owner/repo or its slug, at most 200 characters.",
    ],
    [
      { kind: "bug", message: "hi", contact: "x".repeat(201) },
      "contact must be a non-empty text of at most 200 characters.",
    ],
    [
      { kind: "bug", message: "hi", email: "a@b.example" },
      'Unknown field "email"; allowed: kind, message, project, contact.',
    ],
    [
      { kind: "bug", message: "before\u0000after" },
      "message contains a NUL character (%00, \\u0000), which no field accepts; remove it.",
    ],
    [
      { kind: "bug", message: "hi", contact: "\u0000" },
      "contact contains a NUL character (%00, \\u0000), which no field accepts; remove it.",
    ],
  ])("refuses %j with 422 invalid_body", async (body, message) => {
    const res = await send(server.url, body);
    expect([res.status, res.body.detail.error.code, res.body.detail.error.message]).toEqual([
      422,
      "invalid_body",
      message,
    ]);
  });

  it("refuses a query string with 422 rather than ignoring it, storing nothing", async () => {
    const file = feedbackFile(statePaths({ stateDir: fixture.root }).root);
    const before = (await readFeedback(file)).length;
    const res = await fetch(`${server.url}/api/v1/feedback?x=1&kind=bug`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "bug", message: "hi" }),
    });
    const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
    expect([res.status, body.detail.error.code, body.detail.error.message]).toEqual([
      422,
      "invalid_parameter",
      'POST /api/v1/feedback takes no query parameters (got "x", "kind"); send its fields in the JSON body.',
    ]);
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect((await readFeedback(file)).length).toBe(before);
  });

  it("answers GET with 405 naming POST", async () => {
    const res = await fetch(`${server.url}/api/v1/feedback`);
    expect([res.status, res.headers.get("allow")]).toEqual([405, "POST"]);
  });

  it(`takes ${FEEDBACK_PER_DAY} a day per caller, then 429 with its own message`, async () => {
    clock.set("2026-03-03T09:00:00Z");
    const statuses = [];
    for (let i = 0; i < FEEDBACK_PER_DAY; i++) {
      statuses.push((await send(server.url, { kind: "other", message: `note ${i}` })).status);
    }
    expect(statuses).toEqual(Array(FEEDBACK_PER_DAY).fill(202));
    const over = await send(server.url, { kind: "other", message: "one more" });
    expect([over.status, over.body.detail.error.code, over.headers.get("retry-after")]).toEqual([
      429,
      "rate_limit_exceeded",
      "54000",
    ]);
    expect(over.body.detail.error.message).toBe(
      `Feedback is limited to ${FEEDBACK_PER_DAY} messages per caller a day; it resets at 2026-03-04T00:00:00+00:00. Thank you for the ones sent.`,
    );
    clock.set("2026-03-04T00:00:01Z");
    expect((await send(server.url, { kind: "other", message: "a new day" })).status).toBe(202);
  });

  it("loses nothing answered when the shim is killed with SIGKILL right after its 202s", async () => {
    const state = await publishedFixture();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "api-shim/feedback/server.testing.ts", state.root],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    try {
      const [url] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => send(url, { kind: "bug", message: `crash test ${i}` })),
      );
      child.kill("SIGKILL");
      await once(child, "exit");
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
      const stored = await readFeedback(feedbackFile(state.root));
      expect(stored.map((r) => r.id).sort()).toEqual(answers.map((a) => a.body.data.id).sort());
    } finally {
      child.kill("SIGKILL");
      await state.cleanup();
    }
  }, 60_000);
});
