// The documents of a release of the simulated world: the Atom feed parsed back with a real XML parser and checked
// against the warehouse, the AI plugin manifest against its schema and the URLs it names, the docs page against the
// OpenAPI document, the index page's links — all served by the shim.
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimApp, sharedSimApp } from "../test/sim-release.ts";
import { aiPluginSchema } from "./ai-plugin.ts";
import { FEED_TRANSITIONS } from "./feed.ts";
import type { OpenApiDocument } from "./openapi.ts";

const BASE = "http://localhost:8787";
let sim: SimApp;
let doc: OpenApiDocument;

beforeAll(async () => {
  sim = await sharedSimApp();
  doc = (await sim.app.inject({ url: "/api/v1/openapi.json" })).json();
}, 600_000);
afterAll(() => sim?.close());

/** An element's text: the feed library writes titles and summaries as CDATA with a type attribute. */
const textOf = (element: unknown) =>
  typeof element === "object" && element !== null ? (element as { "#text": string })["#text"] : element;

interface AtomEntry {
  id: string;
  title: unknown;
  updated: string;
  link: { "@_href": string };
  summary: string;
  category: { "@_term": string } | { "@_term": string }[];
}

describe("GET /api/v1/feed.atom", () => {
  it("is Atom 1.0 of the latest lifecycle changes and this week's briefings, newest first", async () => {
    const res = await sim.app.inject({ url: "/api/v1/feed.atom" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "entry" }).parse(
      res.body,
    );
    const feed = parsed.feed as { "@_xmlns": string; id: string; updated: string; entry: AtomEntry[] };
    expect(feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.updated).toBe(`${sim.runDate}T00:00:00.000Z`);

    const changes = await sim.db.all<{
      node_id: string;
      full_name: string;
      date: string;
      from_stage: string;
      to_stage: string;
      slug: string;
    }>(
      `SELECT t.node_id, t.full_name, strftime(t.date, '%Y-%m-%d') AS date, t.from_stage, t.to_stage, p.slug
       FROM transitions t JOIN projects p USING (full_name)
       WHERE t.from_stage IS NOT NULL ORDER BY t.date DESC, t.full_name LIMIT ${FEED_TRANSITIONS}`,
    );
    const briefings = await sim.db.all<{ slug: string; title: string; date: string }>(
      "SELECT slug, title, strftime(date::DATE, '%Y-%m-%d') AS date FROM ds_briefings WHERE NOT is_quiet",
    );
    expect(changes.length).toBeGreaterThan(0);
    expect(briefings.length).toBeGreaterThan(0);
    expect(feed.entry.length).toBe(changes.length + briefings.length);

    const byId = new Map(feed.entry.map((e) => [e.id, e]));
    expect(byId.size).toBe(feed.entry.length);
    const change = changes[0] as (typeof changes)[0];
    const entry = byId.get(`tag:localhost,2026:transition/${change.node_id}/${change.date}`) as AtomEntry;
    expect(textOf(entry.title)).toBe(`${change.full_name}: ${change.from_stage} → ${change.to_stage}`);
    expect(entry.link["@_href"]).toBe(`${BASE}/api/v1/projects/${change.slug}`);
    expect(entry.updated).toBe(`${change.date}T00:00:00.000Z`);
    for (const b of briefings) {
      const e = byId.get(`tag:localhost,2026:briefing/${b.slug}`) as AtomEntry;
      expect(textOf(e.title)).toBe(b.title);
      expect(e.link["@_href"]).toBe(`${BASE}/api/v1/briefings/${b.slug}`);
    }
    const dates = feed.entry.map((e) => e.updated);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("links every entry to an endpoint that answers", async () => {
    const res = await sim.app.inject({ url: "/api/v1/feed.atom" });
    const entries = new XMLParser({ ignoreAttributes: false, isArray: (n) => n === "entry" }).parse(res.body)
      .feed.entry as AtomEntry[];
    for (const e of entries.slice(0, 20)) {
      const answer = await sim.app.inject({ url: e.link["@_href"].slice(BASE.length) });
      expect(answer.statusCode, e.link["@_href"]).toBe(200);
    }
  });
});

describe("GET /.well-known/ai-plugin.json", () => {
  it("names the OpenAPI document and a logo that are served, with contact and legal information", async () => {
    const res = await sim.app.inject({ url: "/.well-known/ai-plugin.json" });
    expect(res.statusCode).toBe(200);
    const manifest = aiPluginSchema.parse(res.json());
    expect(manifest.api).toEqual({
      type: "openapi",
      url: `${BASE}/api/v1/openapi.json`,
      is_user_authenticated: false,
    });
    expect(manifest.auth).toEqual({ type: "none" });
    expect(manifest.contact_email).toBe("api@example.org");
    const logo = await sim.app.inject({ url: manifest.logo_url.slice(BASE.length) });
    expect([logo.statusCode, logo.headers["content-type"]]).toEqual([200, "image/svg+xml"]);
    const legal = await sim.app.inject({ url: "/" });
    expect(legal.body).toContain('id="legal"');
  });
});

describe("GET /docs and GET /", () => {
  it("shows every operation of the OpenAPI document with its example request, and no script", async () => {
    const res = await sim.app.inject({ url: "/docs" });
    expect([res.statusCode, res.headers["content-type"]]).toEqual([200, "text/html; charset=utf-8"]);
    expect(res.body).not.toMatch(/<script|https?:\/\/(?!localhost)[^"<\s]*\.(js|css)/);
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(res.body, path).toContain(`id="${op.operationId}"`);
        expect(res.body).toContain(
          `<span class="method">${method.toUpperCase()}</span> <code>${path}</code>`,
        );
        const example = op["x-example-request"];
        if (example) expect(res.body).toContain(`href="${example.replace(/&/g, "&amp;")}"`);
      }
    }
  });

  it("links the docs, the OpenAPI document, the datasets, the status and the feed, each answering", async () => {
    const res = await sim.app.inject({ url: "/" });
    expect(res.statusCode).toBe(200);
    const links = [...res.body.matchAll(/href="(\/[^"]*)"/g)].map((m) =>
      (m[1] as string).replace(/&amp;/g, "&"),
    );
    for (const wanted of [
      "/docs",
      "/api/v1/openapi.json",
      "/api/v1/datasets",
      "/api/v1/status",
      "/api/v1/feed.atom",
    ])
      expect(links).toContain(wanted);
    for (const link of links) {
      const answer = await sim.app.inject({ url: link.split("#")[0] as string });
      expect(answer.statusCode, link).toBe(200);
    }
  });
});
