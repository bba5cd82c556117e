// The recorded-response hook: how `projintel sources verify DIR` checks a folder of real recorded answers
// (laid out like test/fixtures/real/). Each source folder name maps to one `ParseRecorded` function that
// parses a body of a given endpoint kind with the connector's own zod schemas. Verify does the rest: reads
// the body and its `.headers.json`, runs the shared HTTP decision (classifyResponse) and prints the verdict.
//
// To plug a source in: export `parseRecorded` from `pipeline/sources/<name>/recorded.ts` and add one line to
// RECORDED_PARSERS in recorded-registry.ts, keyed by the fixture folder name (e.g. `npm: parseNpmRecorded`).
import type { Classification, Decision, Headers } from "../collect/http-decision.ts";

/** One recorded answer, as verify hands it to a source's parser. */
export interface RecordedResponse {
  /** The endpoint kind: the file name before the first dot (e.g. `repo-get`, `project-json`). */
  kind: string;
  /** The body's file name. */
  file: string;
  /** From the `.headers.json` file; otherwise inferred from a 3-digit token in the name, else 200. */
  status: number;
  headers: Headers;
  /** Parsed JSON; the raw text for other formats (XML); undefined for an empty body. */
  body: unknown;
  /** What the shared HTTP layer decides for this status, headers and body. */
  classification: Classification;
}

/**
 * What a parser says: a short description of what it read (e.g. "PyGithub/PyGithub, 6955 stars"), and
 * optionally a decision of its own where the source knows better than the HTTP layer (e.g. GraphQL NOT_FOUND
 * inside a 200 skips the entity). A body the source cannot read makes the parser throw (a ZodError or an
 * Error saying why); an unknown kind throws too.
 */
export interface RecordedVerdict {
  detail: string;
  decision?: Decision;
}

export type ParseRecorded = (response: RecordedResponse) => RecordedVerdict;

export class UnknownKindError extends Error {
  constructor(source: string, kind: string) {
    super(`no schema for ${source} endpoint kind "${kind}"`);
  }
}
