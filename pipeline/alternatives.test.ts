// The alternatives of a project (pipeline/sql/alternatives.sql) on the reality set — 426 real projects of
// best-of-ml-python rated by `projintel rate` — where well-known rivals must come out as each other's alternatives
// by the general rules alone, and on a hand-made domain where a distinctive shared topic links two subcategories.
import { beforeAll, describe, expect, it } from "vitest";
import { rateRepos } from "./lists/rate.ts";
import { type RealityProject, rateReality } from "./lists/reality.ts";

let projects: RealityProject[];
let byName: Map<string, RealityProject>;
let twice: Set<string>;
beforeAll(async () => {
  projects = await rateReality();
  byName = new Map(projects.map((p) => [p.full_name, p]));
  twice = new Set(
    projects
      .filter((p, i) => projects.findIndex((o) => o.full_name === p.full_name) !== i)
      .map((p) => p.full_name),
  );
});

function alternativesOf(name: string): string[] {
  const project = byName.get(name);
  if (!project) throw new Error(`${name} is not in the reality set`);
  return project.alternatives;
}

describe("alternatives on the reality set (best-of-ml-python, 2025-06-26)", () => {
  it.each([
    ["facebookresearch/faiss", "nmslib/hnswlib"],
    ["mlflow/mlflow", "iterative/dvc"],
    ["mlflow/mlflow", "aimhubio/aim"],
    ["librosa/librosa", "MTG/essentia"],
    ["espnet/espnet", "speechbrain/speechbrain"],
    ["PaddlePaddle/PaddleOCR", "JaidedAI/EasyOCR"],
    ["facebook/prophet", "Nixtla/statsforecast"],
    ["huggingface/tokenizers", "google/sentencepiece"],
    ["RasaHQ/rasa", "gunthercox/ChatterBot"],
    ["serengil/deepface", "ageitgey/face_recognition"],
  ])("%s and %s are each other's alternatives", (a, b) => {
    expect(alternativesOf(a)).toContain(b);
    expect(alternativesOf(b)).toContain(a);
  });

  it("lists the best of the subcategory by score: faiss's are the other five ANN libraries, best first", () => {
    expect(alternativesOf("facebookresearch/faiss")).toEqual([
      "nmslib/nmslib",
      "lmcinnes/pynndescent",
      // methodology 4: hnswlib, a library still released, above the benchmark suite
      "nmslib/hnswlib",
      "erikbern/ann-benchmarks",
      "kakao/n2",
    ]);
    // a subcategory of two: each is the other's only alternative
    expect(alternativesOf("librosa/librosa")).toEqual(["MTG/essentia"]);
  });

  it("keeps every alternative in the project's subcategory (the set has no topics or dependencies), at most 5, never itself, by score", () => {
    let pairs = 0;
    for (const p of projects) {
      expect(p.alternatives.length).toBeLessThanOrEqual(5);
      expect(p.alternatives).not.toContain(p.full_name);
      // a name the list holds twice (ml-tooling/best-of-python, in two categories) is judged by its lines, not here
      const others = p.alternatives
        .filter((name) => !twice.has(name))
        .map((name) => byName.get(name) as RealityProject);
      for (const o of others) {
        expect([o.domain, o.subcategory]).toEqual([p.domain, p.subcategory]);
        pairs++;
      }
      if (twice.has(p.full_name)) continue;
      const scores = others.map((o) => o.quality_score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
      // a project with a subcategory and a peer in it has alternatives; one without a subcategory has none here
      const peers = projects.filter(
        (o) => o.subcategory && o.subcategory === p.subcategory && o.full_name !== p.full_name,
      );
      expect(p.alternatives.length).toBe(Math.min(5, peers.length));
    }
    expect(pairs).toBeGreaterThan(500);
  });
});

describe("alternatives through shared topics", () => {
  it("links two subcategories of a domain by a distinctive topic, never by one most of the domain holds", async () => {
    const base = { license: "MIT", created_at: "2022-01-01", pushed_at: "2025-06-20", commits_90d: 50 };
    const rows = [
      {
        full_name: "a/annlib",
        description: "Approximate nearest neighbor search library",
        topics: ["hnsw", "vector-search"],
        stars: 900,
      },
      {
        full_name: "b/vecdb",
        description: "An open-source vector database",
        topics: ["HNSW", "vector-search"],
        stars: 800,
      },
      ...Array.from({ length: 8 }, (_, i) => ({
        full_name: `o${i}/vdb${i}`,
        description: "An open-source vector database",
        topics: ["vector-search"],
        stars: 100 + i,
      })),
    ].map((r, i) => ({ ...base, ...r, line: i + 1 }));
    const rated = new Map((await rateRepos(rows, "2025-06-26")).map((r) => [r.full_name, r]));
    expect([rated.get("a/annlib")?.subcategory, rated.get("b/vecdb")?.subcategory]).toEqual([
      "ann-libraries",
      "vector-databases",
    ]);
    // hnsw: 2 of the domain's 10 (at most 20% may hold it); vector-search: all 10, so it links nothing
    expect(rated.get("a/annlib")?.alternatives).toEqual(["b/vecdb"]);
    // the same subcategory first (by score, then stars), then the other subcategory's project sharing hnsw: here
    // the five of its own subcategory fill every slot
    expect(rated.get("b/vecdb")?.alternatives).toEqual([
      "o7/vdb7",
      "o6/vdb6",
      "o5/vdb5",
      "o4/vdb4",
      "o3/vdb3",
    ]);
  });
});
