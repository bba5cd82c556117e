// Free-text matching of repository search, as GitHub does it: case-insensitive words, a "quoted phrase"
// matching consecutive words within one field, and `in:name,description,topics` choosing the fields (all
// three when absent; the sim has no READMEs). A word index over every name a repository ever has, its
// description and its topics narrows the scan to the repositories that can match.
import { descriptionOf, topicNames } from "../repo-text.ts";
import type { World } from "../world.ts";

export type TextField = "name" | "description" | "topics" | "readme";

/** The fields searched without `in:`. */
export const DEFAULT_TEXT_FIELDS: readonly TextField[] = ["name", "description", "topics"];

/** GitHub splits names and texts at anything but letters and digits: "vector-db" is the words vector, db. */
export function textWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

function hasPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, k) => words[start + k] === word)) return true;
  }
  return false;
}

/** The word lists of one repository's searched fields at an instant (each topic its own list). */
function fieldWords(world: World, i: number, fields: readonly TextField[], now: number): string[][] {
  const lists: string[][] = [];
  if (fields.includes("name")) lists.push(textWords(world.repoNameAt(i, now)));
  if (fields.includes("description")) lists.push(textWords(descriptionOf(world, i) ?? ""));
  if (fields.includes("topics")) for (const topic of topicNames(world, i)) lists.push(textWords(topic));
  return lists;
}

/** Every term (a word or a phrase) appears in one of the fields, each phrase within a single field. */
export function matchesText(
  world: World,
  i: number,
  terms: readonly string[],
  fields: readonly TextField[],
  now: number,
): boolean {
  const lists = fieldWords(world, i, fields, now);
  return terms.every((term) => {
    const phrase = textWords(term);
    return phrase.length === 0 || lists.some((words) => hasPhrase(words, phrase));
  });
}

const wordIndexes = new WeakMap<World, Map<string, Int32Array>>();

/** Repositories whose name (before or after a rename), description or topics hold a word, built once. */
function reposWithWord(world: World, word: string): Int32Array {
  let index = wordIndexes.get(world);
  if (!index) {
    const lists = new Map<string, number[]>();
    for (let i = 0; i < world.size; i++) {
      const text = `${world.repoName(i)} ${world.repoNameAt(i, Number.POSITIVE_INFINITY)} ${descriptionOf(world, i) ?? ""} ${topicNames(world, i).join(" ")}`;
      for (const w of new Set(textWords(text))) {
        const list = lists.get(w);
        if (list) list.push(i);
        else lists.set(w, [i]);
      }
    }
    index = new Map([...lists].map(([w, list]) => [w, Int32Array.from(list)]));
    wordIndexes.set(world, index);
  }
  return index.get(word) ?? new Int32Array(0);
}

/** The fewest repositories that can match the terms (ascending indices), or undefined without words. */
export function textCandidates(world: World, terms: readonly string[]): Int32Array | undefined {
  let best: Int32Array | undefined;
  for (const term of terms) {
    for (const word of textWords(term)) {
      const list = reposWithWord(world, word);
      if (!best || list.length < best.length) best = list;
    }
  }
  return best;
}
