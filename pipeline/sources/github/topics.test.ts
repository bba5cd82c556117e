// The default topic list covers all 30 domains with topics the taxonomy knows for that domain; the default
// keywords are taxonomy topics written as phrases; configured terms are normalised the way GitHub reads them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_GITHUB_KEYWORDS, loadConfig } from "../../../core/config.ts";
import { DOMAINS } from "../../../schemas/enums.ts";
import {
  DEFAULT_TOPICS,
  DEFAULT_TOPICS_BY_DOMAIN,
  searchKeywords,
  searchTerms,
  searchTopics,
} from "./topics.ts";

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

describe("keywords", () => {
  it("default to a few multi-word taxonomy topics written as phrases, off when configured empty", () => {
    const topics = new Set(taxonomy.domains.flatMap((d) => d.topics));
    expect(DEFAULT_GITHUB_KEYWORDS.length).toBeLessThanOrEqual(6);
    for (const phrase of DEFAULT_GITHUB_KEYWORDS) {
      expect({ phrase, topic: topics.has(phrase.replaceAll(" ", "-")) }).toEqual({ phrase, topic: true });
      expect(searchKeywords([phrase])).toEqual([phrase]);
    }
    expect(loadConfig().github.keywords).toEqual(DEFAULT_GITHUB_KEYWORDS);
    expect(loadConfig({ overrides: { github: { keywords: [] } } }).github.keywords).toEqual([]);
  });

  it("are read as lower-case words, de-duplicated, empty ones dropped", () => {
    expect(searchKeywords(["Vector  Database", "vector-database", "  ", '"RAG" pipeline'])).toEqual([
      "vector database",
      "rag pipeline",
    ]);
  });

  it("are searched after the topics", () => {
    expect(searchTerms({ topics: ["rag"], keywords: ["Vector DB"] })).toEqual([
      { kind: "topic", value: "rag" },
      { kind: "keyword", value: "vector db" },
    ]);
  });
});
