// The default topic list covers all 30 domains with topics the taxonomy knows for that domain.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../schemas/enums.ts";
import { DEFAULT_TOPICS, DEFAULT_TOPICS_BY_DOMAIN, searchTopics } from "./topics.ts";

const taxonomy = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../../data/taxonomy.json"), "utf8"),
) as {
  domains: { slug: string; topics: string[] }[];
};

describe("default topics", () => {
  it("cover every domain of the spec", () => {
    expect(Object.keys(DEFAULT_TOPICS_BY_DOMAIN).sort()).toEqual([...DOMAINS].sort());
  });

  it("are topics the taxonomy lists for that domain", () => {
    for (const [domain, topics] of Object.entries(DEFAULT_TOPICS_BY_DOMAIN)) {
      const known = taxonomy.domains.find((d) => d.slug === domain)?.topics ?? [];
      expect({ domain, unknown: topics.filter((t) => !known.includes(t)) }).toEqual({ domain, unknown: [] });
    }
  });

  it("are valid GitHub topic names, each listed once", () => {
    for (const topic of DEFAULT_TOPICS) expect(topic).toMatch(/^[a-z0-9][a-z0-9-]{0,49}$/);
    expect(new Set(DEFAULT_TOPICS).size).toBe(DEFAULT_TOPICS.length);
  });

  it("give way to configured topics, lower-cased and de-duplicated", () => {
    expect(searchTopics([])).toBe(DEFAULT_TOPICS);
    expect(searchTopics(["RAG", "rag", " mcp "])).toEqual(["rag", "mcp"]);
  });
});
