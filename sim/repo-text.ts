// The descriptive side of a repository, derived on demand from its index: description, topics,
// homepage, default branch, language and license. Topics come from one vocabulary so search can index them.
import { parseDay } from "./dates.ts";
import { describe } from "./descriptions.ts";
import { linksOf } from "./links.ts";
import { hash32, pickIndex, SALT, unit } from "./random.ts";
import { FLAG_EMPTY, FLAG_HOMEPAGE } from "./repo-params.ts";
import {
  DOMAINS,
  type DomainWords,
  GENERIC_TOPICS,
  LANGUAGES,
  LICENSES,
  type LicenseInfo,
} from "./vocabulary.ts";
import type { World } from "./world.ts";

/** Every topic the world uses; a repository's topics are indices into this list. */
export const TOPIC_VOCABULARY: readonly string[] = [
  ...new Set([...DOMAINS.flatMap((domain) => domain.topics), ...GENERIC_TOPICS]),
];
const TOPIC_INDEX = new Map(TOPIC_VOCABULARY.map((topic, index) => [topic, index]));
const MAIN_BRANCH_SINCE = parseDay("2020-10-01") as number;

export function domainOf(world: World, i: number): DomainWords {
  return DOMAINS[world.params.domain[i] as number] as DomainWords;
}

export function topicIndex(topic: string): number | undefined {
  return TOPIC_INDEX.get(topic.toLowerCase());
}

/** Topic indices of a repository, in the order its owner listed them (may be empty). */
export function topicsOf(world: World, i: number): number[] {
  const u = (k: number) => unit(world.seed, i, SALT.topics, k);
  if (u(0) < 0.07) return [];
  const domain = domainOf(world, i);
  const chosen: string[] = [];
  const add = (topic: string) => {
    if (!chosen.includes(topic)) chosen.push(topic);
  };
  if (u(1) < 0.8) add(domain.topics[0] as string);
  const own = 1 + Math.floor(u(2) * 3);
  for (let k = 0; k < own; k++) add(domain.topics[pickIndex(u(10 + k), domain.topics.length)] as string);
  const generic = Math.floor(u(3) * 4);
  for (let k = 0; k < generic; k++)
    add(GENERIC_TOPICS[pickIndex(u(20 + k), GENERIC_TOPICS.length)] as string);
  if (u(4) < 0.15) {
    const other = DOMAINS[pickIndex(u(5), DOMAINS.length)] as DomainWords;
    add(other.topics[pickIndex(u(6), other.topics.length)] as string);
  }
  return chosen.map((topic) => TOPIC_INDEX.get(topic) as number);
}

export function topicNames(world: World, i: number): string[] {
  return topicsOf(world, i).map((index) => TOPIC_VOCABULARY[index] as string);
}

/** What the repository is, in its domain's words (lower case, no framing): what titles and abstracts quote. */
export function phraseOf(world: World, i: number): string {
  const domain = domainOf(world, i);
  return domain.phrases[pickIndex(unit(world.seed, i, SALT.description, 1), domain.phrases.length)] as string;
}

export function descriptionOf(world: World, i: number): string | null {
  const u = (k: number) => unit(world.seed, i, SALT.description, k);
  if (u(0) < 0.04) return null;
  return describe({ u, phrase: phraseOf(world, i), name: world.repoName(i), language: languageOf(world, i) });
}

export function languageOf(world: World, i: number): string | null {
  const index = world.params.language[i] as number;
  return index < 0 ? null : (LANGUAGES[index] as string);
}

export function licenseOf(world: World, i: number): LicenseInfo | null {
  const index = world.params.license[i] as number;
  return index < 0 ? null : (LICENSES[index] as LicenseInfo);
}

export function homepageOf(world: World, i: number): string | null {
  // Research code often points its homepage at its paper: half the repositories with one do (the others cite it
  // only through their Hugging Face models, when they have any).
  const paper = linksOf(world).arxivId(i);
  if (paper !== undefined && unit(world.seed, i, SALT.homepage, 2) < 0.5)
    return `https://arxiv.org/abs/${paper}`;
  if (!((world.params.flags[i] as number) & FLAG_HOMEPAGE)) return null;
  const owner = world.ownerLogin(world.ownerOf(i));
  const name = world.repoName(i).toLowerCase();
  return unit(world.seed, i, SALT.homepage, 1) < 0.6
    ? `https://${owner}.github.io/${name}/`
    : `https://${name}.example.org`;
}

/** The default branch name, or null for an empty repository (GitHub's defaultBranchRef is then null). */
export function defaultBranchOf(world: World, i: number): string | null {
  if ((world.params.flags[i] as number) & FLAG_EMPTY) return null;
  const old = (world.params.created[i] as number) < MAIN_BRANCH_SINCE;
  const roll = unit(world.seed, i, SALT.branch);
  if (roll < 0.02) return "develop";
  return (old ? roll < 0.85 : roll < 0.1) ? "master" : "main";
}

/** 40-character commit id of the n-th commit. */
export function commitOid(world: World, i: number, n: number): string {
  let out = "";
  for (let block = 0; block < 5; block++)
    out += hash32(world.seed, i, n, 0xc0 + block)
      .toString(16)
      .padStart(8, "0");
  return out;
}
