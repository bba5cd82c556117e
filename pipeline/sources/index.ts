// Every connector, in the order collect runs them (a source comes after the ones it `needs`).
// Plain list on purpose: no directory scanning, no self-registration; a test checks every folder is here.
import { arxiv } from "./arxiv/index.ts";
import { dockerhub } from "./dockerhub/index.ts";
import { github } from "./github/index.ts";
import { githubRest } from "./github/rest-source.ts";
import { hackernews } from "./hackernews/index.ts";
import { huggingface } from "./huggingface/index.ts";
import { npm } from "./npm/index.ts";
import { pypi } from "./pypi/index.ts";
import { pypistats } from "./pypistats/index.ts";
import type { Source } from "./types.ts";

/**
 * github_rest (GitHub's REST phase, in the github folder) needs github's batches of the night; arxiv comes
 * after huggingface: it reads the `arxiv:` tags of the models collected that night.
 */
export const SOURCES: readonly Source[] = [
  github,
  githubRest,
  pypi,
  pypistats,
  npm,
  dockerhub,
  huggingface,
  hackernews,
  arxiv,
];
