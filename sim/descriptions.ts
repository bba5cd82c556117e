// Repository descriptions as people write them: the domain's phrase (which carries the words classification
// reads) framed in one of several shapes — bare, with an adjective, after the project's name, with a short
// second sentence — so a page of them does not read as one template filled in three thousand times.
import { pickIndex } from "./random.ts";

/** Adjectives an author puts before the phrase; never before one that already opens with an adjective. */
const QUALIFIERS: readonly string[] = [
  "lightweight",
  "minimal",
  "modular",
  "experimental",
  "hackable",
  "simple",
  "small",
  "fast",
  "scalable",
  "production-ready",
  "opinionated",
  "batteries-included",
];

/** First words of phrases that are adjectives already: no qualifier before them ("simple fast sampler"). */
const OPENS_WITH_MODIFIER =
  /^(fast|minimal|curated|unified|self-hosted|industrial|efficient|high-throughput|memory-efficient|open|probabilistic|approximate|embedded|multilingual|real-time|graph-based|node-based|simulation-based|llm-driven|structured-output|sequential|deep|generative|neural|physics-informed|machine-learned|run|chat)\b/i;
/** Phrases that open with a verb ("run quantized models…", "chat with…") take neither a qualifier nor an article. */
const OPENS_WITH_VERB = /^(run|chat)\b/i;
/** Head nouns that are one countable thing, so "a"/"an" fits before the phrase (not "a music generation"). */
const COUNTABLE_HEADS =
  /^(framework|server|gateway|sdk|agent|pipeline|assistant|engine|toolkit|database|index|store|library|suite|manager|editor|trainer|harness|platform|crawler|scanner|renderer|generator|stack|ui|model|benchmark|leaderboard|collection)$/i;
/** Words that end a phrase's leading noun group. */
const GROUP_END = / (that|with|using|from|over|for|powered by|exposing|in|on) /;

/** Second sentences that fit any project (none claims a license, a language or a state the world contradicts). */
const SECOND_SENTENCES: readonly string[] = [
  "Work in progress.",
  "Early alpha; expect breaking changes.",
  "Docs and examples included.",
  "Contributions welcome!",
  "Tested on Linux and macOS.",
  "Feedback and issues welcome.",
  "Still under active development.",
];

const EMOJI: readonly string[] = ["🚀", "⚡", "🤖", "🔥", "✨", "🧠"];

/** Languages worth naming in a description (Python is assumed; a notebook is not a language to boast of). */
const NAMED_LANGUAGES = new Set(["Rust", "Go", "C++", "TypeScript", "Julia", "Java", "C", "Cuda"]);

/** Letters an acronym opens with that sound like a vowel ("an LLM", "an MCP server", "an SDK"). */
const VOWEL_SOUNDING_INITIALS = "AEFHILMNORSX";

/** "a" or "an" before a word, by how it is said: acronyms by their first letter's name. */
export function article(word: string): "a" | "an" {
  if (/^[A-Z0-9]{2,}/.test(word)) return VOWEL_SOUNDING_INITIALS.includes(word.charAt(0)) ? "an" : "a";
  if (/^(uni|use|one|eu)/i.test(word)) return "a";
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

/** The first letter upper-cased unless the word is a mixed-case name ("iOS", "vLLM"-like) meant to stay. */
function capitalise(text: string): string {
  return /^[a-z][A-Z]/.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/** The phrase's leading noun group (up to "that", "with", "for", …), for the terse shape. */
function nounGroup(phrase: string): string {
  const cut = phrase.search(GROUP_END);
  return cut > 12 ? phrase.slice(0, cut) : phrase;
}

/** Whether the phrase names one countable thing ("engine", "toolkit"), so it can take an article. */
function countable(phrase: string): boolean {
  const cut = phrase.search(GROUP_END);
  const group = cut > 0 ? phrase.slice(0, cut) : phrase;
  return !OPENS_WITH_VERB.test(phrase) && COUNTABLE_HEADS.test(group.split(" ").at(-1) ?? "");
}

export interface DescriptionInput {
  /** Unit draws for this repository, by position (independent of each other). */
  u: (k: number) => number;
  phrase: string;
  /** The repository's name as shown on GitHub. */
  name: string;
  language: string | null;
}

/** One description from a repository's draws: the same inputs always give the same text. */
export function describe({ u, phrase, name, language }: DescriptionInput): string {
  const modified = OPENS_WITH_MODIFIER.test(phrase);
  const single = countable(phrase);
  const qualifier = QUALIFIERS[pickIndex(u(2), QUALIFIERS.length)] as string;
  const shape = u(4);
  let text: string;
  if (shape < 0.3) text = capitalise(phrase);
  else if (shape < 0.45 && !modified) text = capitalise(`${qualifier} ${phrase}`);
  else if (shape < 0.57 && !modified && single)
    text = capitalise(`${article(qualifier)} ${qualifier} ${phrase}`);
  else if (shape < 0.62 && single) text = capitalise(`${article(phrase)} ${phrase}`);
  else if (shape < 0.72) text = `${capitalise(name)}: ${phrase}`;
  else if (shape < 0.8) text = `${capitalise(name)} — ${phrase}`;
  else if (shape < 0.88) text = capitalise(nounGroup(phrase));
  else text = capitalise(phrase);
  if (language && NAMED_LANGUAGES.has(language) && u(3) < 0.25) text += `, written in ${language}`;
  const ending = u(5);
  if (ending < 0.18) text += `. ${SECOND_SENTENCES[pickIndex(u(6), SECOND_SENTENCES.length)]}`;
  else if (ending < 0.4) text += ".";
  if (u(7) < 0.05) text = `${EMOJI[pickIndex(u(8), EMOJI.length)]} ${text}`;
  return text;
}
