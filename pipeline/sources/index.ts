// Every connector, in the order collect runs them (a source comes after the ones it `needs`).
// Plain list on purpose: no directory scanning, no self-registration; a test checks every folder is here.
import { github } from "./github/index.ts";
import { pypi } from "./pypi/index.ts";
import { pypistats } from "./pypistats/index.ts";
import type { Source } from "./types.ts";

export const SOURCES: readonly Source[] = [github, pypi, pypistats];
