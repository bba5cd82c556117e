// labs, ds_lab_projects, posts and papers on a hand-made warehouse: curated labs from data/labs.json (several
// GitHub owners each), owners of 3 tracked projects or more, slug clashes, and the latest row of each post and paper.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../core/db.ts";
import { createTable, memoryDb, runTransforms } from "../sql-testing.ts";
import {
  PROJECTS_COLUMNS,
  project,
  RAW_ARXIV_PAPERS_COLUMNS,
  RAW_HN_POSTS_COLUMNS,
  RUN_DATE,
} from "./fixtures.ts";

describe("labs, posts and papers", () => {
  let db: Db;
  beforeAll(async () => {
    db = await memoryDb();
    await createTable(db, "projects", PROJECTS_COLUMNS, [
      project("openai/whisper", { domain: "audio-ai", stars: 1000, quality_score: 80 }),
      project("openai/gym", { domain: "ml-frameworks", stars: 500, quality_score: 70 }),
      project("facebookresearch/faiss", { domain: "vector-db", stars: 2000, quality_score: 90 }),
      project("meta-llama/llama", { domain: "llm-inference", stars: 3000, quality_score: 60 }),
      // one owner, three spellings: a lab of its own
      project("Acme/one", { stars: 10, quality_score: 40 }),
      project("acme/two", { stars: 20, quality_score: 61 }),
      project("ACME/three", { stars: 5, quality_score: 50 }),
      // two projects: not a lab
      project("solo/a"),
      project("solo/b"),
      // not the curated Anthropic (GitHub owner anthropics), but named like its slug
      project("Anthropic/x"),
      project("Anthropic/y"),
      project("Anthropic/z"),
    ]);
    const post = (run_date: string, object_id: string, repo: string, points: number) => ({
      run_date,
      object_id,
      title: `Show HN: ${repo}`,
      url: `https://github.com/${repo}`,
      repo_full_name: repo,
      points,
      num_comments: 3,
      created_at: `2026-11-1${object_id} 12:00:00`,
      author: "pg",
    });
    await createTable(db, "raw_hn_posts", RAW_HN_POSTS_COLUMNS, [
      post("2026-11-19", "1", "openai/whisper", 10),
      post("2026-11-20", "1", "openai/whisper", 25),
      post("2026-11-20", "2", "meta-llama/llama", 40),
      post("2026-11-20", "3", "z/untracked", 99),
      post("2026-11-21", "4", "openai/gym", 5),
    ]);
    const paper = (run_date: string, arxiv_id: string, title: string, repos: string[]) => ({
      run_date,
      arxiv_id,
      repo_full_names: repos,
      title,
      summary: "We show things.",
      authors: ["A. Author", "B. Author"],
      published_at: "2023-01-02 00:00:00",
      updated_at: "2023-02-02 00:00:00",
      primary_category: "cs.CL",
      categories: ["cs.CL", "cs.LG"],
      abs_url: `https://arxiv.org/abs/${arxiv_id}`,
      pdf_url: null,
    });
    await createTable(db, "raw_arxiv_papers", RAW_ARXIV_PAPERS_COLUMNS, [
      paper("2026-11-19", "2301.00001", "Old title", ["openai/whisper"]),
      paper("2026-11-20", "2301.00001", "New title", [
        "openai/whisper",
        "facebookresearch/faiss",
        "z/untracked",
      ]),
      paper("2026-11-20", "2301.00002", "Untracked", ["z/untracked"]),
    ]);
    await runTransforms(db, ["ds_lab_projects", "labs", "posts", "papers"], RUN_DATE);
  });
  afterAll(() => db.close());

  it("makes labs of curated organisations with a tracked project and of owners of 3 projects", async () => {
    expect(
      await db.all(
        "SELECT slug, name, kind, homepage, owners, source, projects, stars, avg_quality_score, top_domain, top_project FROM labs",
      ),
    ).toEqual([
      {
        slug: "meta-ai",
        name: "Meta AI",
        kind: "company",
        homepage: "https://ai.meta.com",
        owners: ["facebookresearch", "meta-llama"],
        source: "curated",
        projects: 2,
        stars: 5000,
        avg_quality_score: 75,
        top_domain: "llm-inference",
        top_project: "meta-llama/llama",
      },
      {
        slug: "openai",
        name: "OpenAI",
        kind: "company",
        homepage: "https://openai.com",
        owners: ["openai"],
        source: "curated",
        projects: 2,
        stars: 1500,
        avg_quality_score: 75,
        top_domain: "audio-ai",
        top_project: "openai/whisper",
      },
      {
        slug: "anthropic-github",
        name: "Anthropic",
        kind: "github-owner",
        homepage: "https://github.com/Anthropic",
        owners: ["Anthropic"],
        source: "owner",
        projects: 3,
        stars: 300,
        avg_quality_score: 50,
        top_domain: "agents",
        top_project: "Anthropic/x",
      },
      {
        slug: "acme",
        name: "acme",
        kind: "github-owner",
        homepage: "https://github.com/acme",
        owners: ["acme"],
        source: "owner",
        projects: 3,
        stars: 35,
        avg_quality_score: 50.3,
        top_domain: "agents",
        top_project: "acme/two",
      },
    ]);
  });

  it("lists each lab's projects, most starred first", async () => {
    expect(await db.all("SELECT lab_slug, full_name, stars FROM ds_lab_projects")).toEqual([
      { lab_slug: "acme", full_name: "acme/two", stars: 20 },
      { lab_slug: "acme", full_name: "Acme/one", stars: 10 },
      { lab_slug: "acme", full_name: "ACME/three", stars: 5 },
      { lab_slug: "anthropic-github", full_name: "Anthropic/x", stars: 100 },
      { lab_slug: "anthropic-github", full_name: "Anthropic/y", stars: 100 },
      { lab_slug: "anthropic-github", full_name: "Anthropic/z", stars: 100 },
      { lab_slug: "meta-ai", full_name: "meta-llama/llama", stars: 3000 },
      { lab_slug: "meta-ai", full_name: "facebookresearch/faiss", stars: 2000 },
      { lab_slug: "openai", full_name: "openai/whisper", stars: 1000 },
      { lab_slug: "openai", full_name: "openai/gym", stars: 500 },
    ]);
  });

  it("publishes each post's latest row for tracked repositories, newest first", async () => {
    expect(
      await db.all(
        "SELECT object_id, full_name, slug, domain, points, comments, hn_url, strftime(created_at, '%Y-%m-%d') AS created FROM posts",
      ),
    ).toEqual([
      {
        object_id: "2",
        full_name: "meta-llama/llama",
        slug: "meta-llama--llama",
        domain: "llm-inference",
        points: 40,
        comments: 3,
        hn_url: "https://news.ycombinator.com/item?id=2",
        created: "2026-11-12",
      },
      {
        object_id: "1",
        full_name: "openai/whisper",
        slug: "openai--whisper",
        domain: "audio-ai",
        points: 25,
        comments: 3,
        hn_url: "https://news.ycombinator.com/item?id=1",
        created: "2026-11-11",
      },
    ]);
  });

  it("publishes each paper once with the tracked repositories linking it and their domains", async () => {
    expect(
      await db.all("SELECT arxiv_id, title, authors, categories, abs_url, full_names, domains FROM papers"),
    ).toEqual([
      {
        arxiv_id: "2301.00001",
        title: "New title",
        authors: ["A. Author", "B. Author"],
        categories: ["cs.CL", "cs.LG"],
        abs_url: "https://arxiv.org/abs/2301.00001",
        full_names: ["facebookresearch/faiss", "openai/whisper"],
        domains: ["audio-ai", "vector-db"],
      },
    ]);
  });
});
