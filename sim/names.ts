// Invented names: owner logins (unique by construction), repository names, PyPI names and stargazer
// logins, all built from made-up syllables so no real project is ever shown with simulated numbers.
import { hash32, pickIndex, unit } from "./random.ts";

const CONSONANTS = "bdfgklmnprstvz";
const VOWELS = "aeiou";
const CODAS = "nrlskx";

const OPEN: readonly string[] = [...CONSONANTS].flatMap((c) => [...VOWELS].map((v) => c + v));
const CLOSED: readonly string[] = OPEN.flatMap((cv) => [...CODAS].map((k) => cv + k));
const OWNER_SPACE = OPEN.length * CLOSED.length * OPEN.length;
// Coprime with OWNER_SPACE (2^4·3·5^3·7^3), so index → slot is a bijection.
const OWNER_STRIDE = 1_000_003;

const ORG_SUFFIXES: readonly string[] = [
  "-ai",
  "labs",
  "-ml",
  "-research",
  "hq",
  "works",
  "-dev",
  "-collective",
];

/** Largest number of distinct owners the login scheme can name. */
export const MAX_OWNERS = OWNER_SPACE;

/** The fixed-width 7-letter stem of an owner: distinct owners always get distinct stems. */
function ownerStem(seed: number, owner: number): string {
  const slot = (owner * OWNER_STRIDE + (hash32(seed, 0x0e) % OWNER_SPACE)) % OWNER_SPACE;
  const a = slot % OPEN.length;
  const rest = Math.floor(slot / OPEN.length);
  const b = rest % CLOSED.length;
  const c = Math.floor(rest / CLOSED.length);
  return (OPEN[a] as string) + (CLOSED[b] as string) + (OPEN[c] as string);
}

export function ownerLogin(seed: number, owner: number, isOrg: boolean): string {
  const stem = ownerStem(seed, owner);
  const u = unit(seed, owner, 0x0a11);
  if (isOrg) return stem + (ORG_SUFFIXES[pickIndex(u, ORG_SUFFIXES.length)] as string);
  return u < 0.35 ? `${stem}${Math.floor(u * 1000) % 100}` : stem;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A repository name (not yet de-duplicated within its owner) from its index and domain name parts. */
export function repoBaseName(seed: number, index: number, parts: readonly string[]): string {
  const h = hash32(seed, index, 0x4e4d);
  const stem = (OPEN[h % OPEN.length] as string) + (CLOSED[(h >>> 8) % CLOSED.length] as string);
  const part = parts[(h >>> 20) % parts.length] as string;
  const style = unit(seed, index, 0x5151);
  if (style < 0.35) return `${stem}-${part}`;
  if (style < 0.6) return stem + part;
  if (style < 0.8) return stem;
  if (style < 0.9) return capitalise(stem) + capitalise(part);
  return `${part}-${stem}`;
}

/** PEP 503 normalised form of a Python project name. */
export function normalisePypiName(name: string): string {
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

/**
 * The PyPI project name a repository publishes under: usually its own name (sometimes with
 * underscores), sometimes a variant the connector cannot guess from the repository name alone.
 */
export function pypiCandidateName(seed: number, index: number, owner: string, repo: string): string {
  const u = unit(seed, index, 0x7079);
  const lower = repo.toLowerCase();
  if (u < 0.6) return repo;
  if (u < 0.7) return lower.replace(/-/g, "_");
  if (u < 0.8) return `py${lower}`;
  if (u < 0.9) return `${lower}-ai`;
  return `${owner.toLowerCase()}-${lower}`;
}

/** An invented GitHub login for the k-th stargazer of a repository. */
export function stargazerLogin(seed: number, index: number, k: number): string {
  const h = hash32(seed, index, k, 0x57a6);
  const stem = (OPEN[h % OPEN.length] as string) + (CLOSED[(h >>> 7) % CLOSED.length] as string);
  const tail = (h >>> 16) % 10 < 4 ? String((h >>> 20) % 1000) : (OPEN[(h >>> 20) % OPEN.length] as string);
  return stem + tail;
}
