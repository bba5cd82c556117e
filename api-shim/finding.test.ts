// Finding projects over real HTTP against the simulated release: a project looked up in a domain it is not in is
// named with the domain it is in and its record's address; the search finds a project by its slug, and text with
// spaces around it as without; a domain with spaces around it, in the path or the query, is the domain; a value
// not percent-encoded as UTF-8 is refused naming its parameter; the MCP alias names mcp's own subcategories.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../core/db.ts";
import { SUBCATEGORIES_BY_DOMAIN } from "../schemas/taxonomy.ts";
import { type SimRelease, simRelease } from "../test/sim-release.ts";
import { type RunningServer, startServer } from "./server.ts";

let release: SimRelease;
let server: RunningServer;
let db: Db;

beforeAll(async () => {
  release = await simRelease();
  server = await startServer({ config: { ...release.config, host: "127.0.0.1" } });
  db = await openDb(path.join(release.stateDir, "warehouse.duckdb"), { readOnly: true });
}, 600_000);
afterAll(async () => {
  db?.close();
  await server?.close();
  await release?.cleanup();
});

async function refusal(url: string): Promise<[number, string, string]> {
  const res = await fetch(`${server.url}${url}`);
  const body = (await res.json()) as { detail: { error: { code: string; message: string } } };
  return [res.status, body.detail.error.code, body.detail.error.message];
}

describe("GET /api/v1/quality/{domain}/{repo} not found", () => {
  it("names the domain a tracked project is in, by slug or owner/repo, and points to its record", async () => {
    const [project] = await db.all<{ full_name: string; slug: string; domain: string }>(
      "SELECT full_name, replace(lower(full_name), '/', '--') AS slug, domain FROM projects ORDER BY stars DESC LIMIT 1",
    );
    if (!project) throw new Error("the simulated release has no project");
    const other = project.domain === "rag" ? "agents" : "rag";
    const expected = `${project.full_name} is in the domain ${project.domain}, not ${other}: its record is /api/v1/quality/${project.domain}/${project.slug}.`;
    for (const ref of [project.slug, encodeURIComponent(project.full_name)]) {
      expect(await refusal(`/api/v1/quality/${other}/${ref}`)).toEqual([404, "not_found", expected]);
    }
    expect((await fetch(`${server.url}/api/v1/quality/${project.domain}/${project.slug}`)).status).toBe(200);
  });

  it("says the domain it searched when the project is tracked nowhere", async () => {
    expect(await refusal("/api/v1/quality/rag/nobody--nothing")).toEqual([
      404,
      "not_found",
      'No repository "nobody--nothing" in the domain rag; list the domain with /api/v1/quality?domain=rag or search with /api/v1/projects?q=.',
    ]);
  });
});

describe("GET /api/v1/projects?q=", () => {
  const names = async (query: string) => {
    const res = await fetch(`${server.url}/api/v1/projects?${query}`);
    const body = (await res.json()) as { data: { full_name: string }[]; meta: { query: { q: string } } };
    return { status: res.status, names: body.data.map((p) => p.full_name), q: body.meta.query.q };
  };

  it("finds a project by its slug, first, as by owner/repo", async () => {
    const [project] = await db.all<{ full_name: string; slug: string }>(
      "SELECT full_name, replace(lower(full_name), '/', '--') AS slug FROM projects ORDER BY stars DESC LIMIT 1",
    );
    if (!project) throw new Error("the simulated release has no project");
    const bySlug = await names(`q=${project.slug}`);
    expect([bySlug.status, bySlug.names[0]]).toEqual([200, project.full_name]);
    expect(bySlug.names).toEqual((await names(`q=${encodeURIComponent(project.full_name)}`)).names);
  });

  it("trims the text: q=rag%20 finds what q=rag finds, and echoes rag", async () => {
    const plain = await names("q=rag");
    expect(plain.names.length).toBeGreaterThan(0);
    expect(await names("q=%20rag%20")).toEqual(plain);
  });
});

describe("values as a newcomer types them", () => {
  const get = async (url: string) => {
    const res = await fetch(`${server.url}${url}`);
    return { status: res.status, body: (await res.json()) as { data: unknown; meta: { query: object } } };
  };

  it("reads a domain with spaces around it as the domain, in the path as in the query", async () => {
    const [project] = await db.all<{ slug: string; domain: string }>(
      "SELECT replace(lower(full_name), '/', '--') AS slug, domain FROM projects ORDER BY stars DESC LIMIT 1",
    );
    if (!project) throw new Error("the simulated release has no project");
    const plain = await get(`/api/v1/quality/${project.domain}/${project.slug}`);
    const spaced = await get(`/api/v1/quality/%20${project.domain}%20/${project.slug}`);
    expect([spaced.status, spaced.body.data]).toEqual([200, plain.body.data]);
    const list = await get(`/api/v1/quality?domain=%20${project.domain}&limit=3`);
    expect([list.status, list.body.meta.query]).toEqual([
      200,
      { domain: project.domain, limit: 3, offset: 0 },
    ]);
  });

  it("refuses a value that is not percent-encoded UTF-8 with 422 naming its parameter", async () => {
    const how =
      "is not validly percent-encoded: each %XX must be a byte of UTF-8 text (é is %C3%A9, a literal % is %25).";
    expect(await refusal("/api/v1/projects?q=%FF")).toEqual([422, "invalid_parameter", `q ${how}`]);
    expect(await refusal("/api/v1/projects?limit=5&q=caf%E9")).toEqual([
      422,
      "invalid_parameter",
      `q ${how}`,
    ]);
    expect(await refusal("/api/v1/projects?%FF=1")).toEqual([422, "invalid_parameter", `"%FF" ${how}`]);
    // the same text encoded as UTF-8 is searched
    const ok = await get("/api/v1/projects?q=caf%C3%A9");
    expect([ok.status, ok.body.meta.query]).toEqual([200, { q: "café", limit: 20, offset: 0 }]);
  });

  it("names mcp's own subcategories for an unknown one on /api/v1/mcp/scores, as /api/v1/quality?domain=mcp does", async () => {
    const expected = `"x" is not a subcategory of mcp; subcategory must be one of: ${SUBCATEGORIES_BY_DOMAIN.mcp.join(", ")}.`;
    expect(await refusal("/api/v1/mcp/scores?subcategory=x")).toEqual([422, "invalid_parameter", expected]);
    expect(await refusal("/api/v1/quality?domain=mcp&subcategory=x")).toEqual([
      422,
      "invalid_parameter",
      expected,
    ]);
  });

  it("refuses a subcategory of another domain with 422 naming both domains, where before it answered 200 and nothing", async () => {
    const rag = SUBCATEGORIES_BY_DOMAIN.rag.join(", ");
    expect(await refusal("/api/v1/quality?domain=rag&subcategory=mcp-servers")).toEqual([
      422,
      "invalid_parameter",
      `"mcp-servers" is a subcategory of mcp, not of rag; subcategory must be one of: ${rag}.`,
    ]);
    expect(await refusal("/api/v1/trending?domain=rag&category=mcp-servers")).toEqual([
      422,
      "invalid_parameter",
      `"mcp-servers" is a subcategory of mcp, not of rag; category must be one of: ${rag}.`,
    ]);
    expect((await refusal("/api/v1/mcp/scores?subcategory=graph-rag"))[2]).toMatch(
      /^"graph-rag" is a subcategory of rag, not of mcp; subcategory must be one of: /,
    );
  });
});
