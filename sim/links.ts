// What links to repositories outside GitHub: npm packages, Docker Hub images, Hugging Face models (whose
// cards cite arXiv papers) and papers. Membership and names are pure functions of (seed, index); the
// name → repository maps are built once per world, on first use, in one pass.
import { between, hash32, SALT, unit } from "./random.ts";
import { FLAG_EMPTY, FLAG_FORK } from "./repo-params.ts";
import { DOMAINS, type DomainWords } from "./vocabulary.ts";
import type { World } from "./world.ts";

/** npm: a JS/TS repository publishes with a chance growing per decade of its star scale; others rarely. */
const NPM_SHARE_JS_BASE = 0.05;
const NPM_SHARE_JS_PER_DECADE = 0.12;
const NPM_SHARE_JS_MAX = 0.7;
const NPM_SHARE_OTHER = 0.01;
/** Images come from servers and tools (inference engines, databases, gateways), rarely from libraries. */
const DOCKER_DOMAINS = new Set([
  "llm-inference",
  "vector-db",
  "mlops",
  "llm-tools",
  "mcp",
  "rag",
  "data-engineering",
  "ai-coding",
  "agents",
]);
const DOCKER_SHARE_SERVING = 0.14;
const DOCKER_SHARE_OTHER = 0.015;
/** Models come from repositories that train or ship them. */
const MODEL_DOMAINS = new Set([
  "transformers",
  "diffusion",
  "multimodal",
  "embeddings",
  "voice-ai",
  "nlp",
  "fine-tuning",
  "computer-vision",
  "audio-ai",
  "generative-ai",
  "3d-ai",
  "scientific-ml",
  "time-series",
  "document-ai",
]);
const MODEL_SHARE_TRAINING = 0.11;
const MODEL_SHARE_OTHER = 0.01;
const PAPER_SHARE = 0.1;
/** Share of model repositories with a legacy id (no namespace; HF answers 307): fewer models now, so a bit more. */
const LEGACY_MODEL_SHARE = 0.15;

export interface Links {
  npmName(index: number): string | undefined;
  findNpm(name: string): number | undefined;
  /** World indices of every npm package's repository, ascending (dependencies are drawn from it). */
  npmIndices: Int32Array;
  /** Docker Hub namespace/repository of a repository's image. */
  dockerName(index: number): string | undefined;
  findDocker(namespace: string, name: string): number | undefined;
  /** Hugging Face model ids published from a repository (0–3). */
  modelIds(index: number): string[];
  findModel(id: string): { index: number; k: number } | undefined;
  /** A legacy (un-namespaced) model id → its canonical id, as HF answers with 307. */
  legacyModel(id: string): string | undefined;
  /** Every legacy model id (a handful). */
  legacyIds: readonly string[];
  modelsByAuthor(author: string): { index: number; k: number }[];
  /** The arXiv id of a repository's paper (new-style YYMM.NNNNN), cited by its model cards. */
  arxivId(index: number): string | undefined;
  findArxiv(id: string): number | undefined;
}

function eligible(world: World, i: number): boolean {
  return ((world.params.flags[i] as number) & (FLAG_FORK | FLAG_EMPTY)) === 0;
}

const built = new WeakMap<World, Links>();

export function linksOf(world: World): Links {
  const hit = built.get(world);
  if (hit) return hit;
  const { seed, size } = world;
  const npmNames = new Map<number, string>();
  const byNpm = new Map<string, number>();
  const dockerNames = new Map<number, string>();
  const byDocker = new Map<string, number>();
  const models = new Map<number, string[]>();
  const byModel = new Map<string, { index: number; k: number }>();
  const byAuthor = new Map<string, { index: number; k: number }[]>();
  const legacy = new Map<string, string>();
  const papers = new Map<number, string>();
  const byPaper = new Map<string, number>();

  for (let i = 0; i < size; i++) {
    if (!eligible(world, i)) continue;
    const u = (salt: number, k = 0) => unit(seed, i, salt, k);
    const owner = world.ownerLogin(world.ownerOf(i)).toLowerCase();
    const name = world.repoName(i).toLowerCase();
    const language = world.params.language[i] as number;
    const decades = Math.log10(1 + (world.params.popularity[i] as number));
    const domain = (DOMAINS[world.params.domain[i] as number] as DomainWords).slug;
    const npmShare =
      language === 1 || language === 2
        ? Math.min(NPM_SHARE_JS_MAX, NPM_SHARE_JS_BASE + NPM_SHARE_JS_PER_DECADE * decades)
        : NPM_SHARE_OTHER;
    if (u(SALT.npm) < npmShare) {
      let chosen = u(SALT.npm, 1) < 0.3 || byNpm.has(name) ? `@${owner}/${name}` : name;
      if (byNpm.has(chosen)) chosen = `${name}-${i}`;
      npmNames.set(i, chosen);
      byNpm.set(chosen, i);
    }
    // the bigger the project, the likelier it ships an image (decades/3: full chance from 1,000 stars)
    const dockerShare = DOCKER_DOMAINS.has(domain) ? DOCKER_SHARE_SERVING : DOCKER_SHARE_OTHER;
    if (u(SALT.docker) < dockerShare * Math.min(1, decades / 3)) {
      dockerNames.set(i, `${owner}/${name}`);
      byDocker.set(`${owner}/${name}`, i);
    }
    const created = world.params.created[i] as number;
    if (u(SALT.arxiv) < PAPER_SHARE) {
      const date = new Date((created - between(u(SALT.arxiv, 1), 5, 120)) * 86_400_000);
      const yymm = `${String(date.getUTCFullYear() % 100).padStart(2, "0")}${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
      let id = "";
      for (let k = 0; id === "" || byPaper.has(id); k++)
        id = `${yymm}.${String(hash32(seed, i, SALT.arxiv, k) % 100_000).padStart(5, "0")}`;
      papers.set(i, id);
      byPaper.set(id, i);
    }
    if (u(SALT.hf) < (MODEL_DOMAINS.has(domain) ? MODEL_SHARE_TRAINING : MODEL_SHARE_OTHER)) {
      const count = 1 + Math.floor(u(SALT.hf, 1) * 3);
      const ids: string[] = [];
      for (let k = 0; k < count; k++) {
        const id = `${owner}/${name}${k === 0 ? "" : `-${["base", "large", "instruct"][k - 1]}`}`;
        ids.push(id);
        byModel.set(id.toLowerCase(), { index: i, k });
        const list = byAuthor.get(owner) ?? [];
        list.push({ index: i, k });
        byAuthor.set(owner, list);
      }
      models.set(i, ids);
      const bare = name.includes("-") ? name : `${name}-model`;
      if (u(SALT.hf, 2) < LEGACY_MODEL_SHARE && !legacy.has(bare)) legacy.set(bare, ids[0] as string);
    }
  }
  const links: Links = {
    npmName: (i) => npmNames.get(i),
    findNpm: (name) => byNpm.get(name.toLowerCase()),
    npmIndices: Int32Array.from(npmNames.keys()),
    dockerName: (i) => dockerNames.get(i),
    findDocker: (namespace, name) => byDocker.get(`${namespace.toLowerCase()}/${name.toLowerCase()}`),
    modelIds: (i) => models.get(i) ?? [],
    findModel: (id) => byModel.get(id.toLowerCase()),
    legacyModel: (id) => legacy.get(id),
    legacyIds: [...legacy.keys()],
    modelsByAuthor: (author) => byAuthor.get(author.toLowerCase()) ?? [],
    arxivId: (i) => papers.get(i),
    findArxiv: (id) => byPaper.get(id),
  };
  built.set(world, links);
  return links;
}
