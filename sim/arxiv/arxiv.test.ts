// arXiv over a real socket: one small reader of the Atom feed accepts the recorded old (2022) and new
// (2026) feeds and the simulator's, in both formats; a malformed id answers 400 like the recorded error.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linksOf } from "../links.ts";
import { type SimServer, startSimServer } from "../server.ts";
import { paperPublished } from "./feed.ts";

/** The shape check shared by real and simulated feeds: total, and per entry id, title, published, summary. */
function readFeed(xml: string) {
  const total = /<opensearch:totalResults[^>]*>(\d+)</.exec(xml)?.[1];
  if (!xml.includes('xmlns="http://www.w3.org/2005/Atom"') || total === undefined)
    throw new Error("not an arXiv Atom feed");
  const entries = [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map(([, body]) => {
    const field = (name: string) =>
      new RegExp(`<${name}(?: [^>]*)?>([\\s\\S]*?)</${name}>`).exec(body as string)?.[1]?.trim();
    const id = field("id");
    const title = field("title");
    if (!id || !title) throw new Error("entry without id or title");
    return { id, title, published: field("published") ?? null, summary: field("summary") ?? "" };
  });
  return { total: Number(total), entries };
}
const real = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/real/arxiv/${name}`, import.meta.url), "utf8");

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ repos: 3000, seed: 12, date: "2026-01-15" });
});
afterAll(async () => {
  await sim.close();
});

function papers(): string[] {
  const links = linksOf(sim.world);
  const out: string[] = [];
  for (let i = 0; i < sim.world.size; i++) {
    const id = links.arxivId(i);
    if (id && paperPublished(sim.world, i, id) < sim.clock.now()) out.push(id);
  }
  return out;
}

describe("GET /arxiv/api/query?id_list=", () => {
  it("answers in the old feed format before 2026-03 and the new one after, both readable like the recorded feeds", async () => {
    expect(readFeed(real("query-id_list-2101.05225.2022-01.xml")).entries[0]?.id).toBe(
      "http://arxiv.org/abs/2101.05225v1",
    );
    expect(readFeed(real("query-id_list-1605.08386.new-backend.2026-04.xml")).entries[0]?.id).toBe(
      "http://arxiv.org/abs/1605.08386v1",
    );
    expect(readFeed(real("query-id_list-0000.0000.empty.2026-04.xml"))).toEqual({ total: 0, entries: [] });
    const ids = papers().slice(0, 2);
    const url = `${sim.url}/arxiv/api/query?id_list=${ids.join(",")}&max_results=10`;
    const old = await (await fetch(url)).text();
    expect(old).toContain('<title type="html">ArXiv Query:');
    expect(readFeed(old).entries.map((e) => e.id.replace(/v\d$/, ""))).toEqual(
      ids.map((id) => `http://arxiv.org/abs/${id}`),
    );
    await fetch(`${sim.url}/_sim/advance?days=60`, { method: "POST" });
    const fresh = await (await fetch(url)).text();
    expect(fresh).toContain('<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"');
    const feed = readFeed(fresh);
    expect(feed.total).toBe(2);
    expect(feed.entries[0]?.summary).toContain("https://github.com/");
  });

  it("answers an unknown id with an empty feed and a malformed one with 400 and an Error entry", async () => {
    const empty = await fetch(`${sim.url}/arxiv/api/query?id_list=0000.0000`);
    expect([empty.status, readFeed(await empty.text()).total]).toEqual([200, 0]);
    const bad = await fetch(`${sim.url}/arxiv/api/query?id_list=abc`);
    const body = await bad.text();
    expect(bad.status).toBe(400);
    expect(readFeed(body).entries).toEqual(
      readFeed(real("query-id_list-abc.error-400.2026-04.xml")).entries.map((e) => ({ ...e })),
    );
  });
});
