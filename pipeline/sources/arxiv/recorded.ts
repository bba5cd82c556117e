// The `recorded` hook of arXiv (see ../recorded.ts): reads a recorded Atom feed (either format); an error
// entry (HTTP 400) fails, as it means the connector sent an id arXiv does not accept.
import { type RecordedResponse, type RecordedVerdict, UnknownKindError } from "../recorded.ts";
import { readFeed } from "./feed.ts";
import { entryId } from "./ids.ts";

export function parseArxivRecorded(response: RecordedResponse): RecordedVerdict {
  const { kind, body } = response;
  if (!kind.startsWith("query-id_list")) throw new UnknownKindError("arxiv", kind);
  const reading = readFeed(typeof body === "string" ? body : "");
  if (reading.kind === "invalid") throw reading.error;
  if (reading.kind === "error") return { detail: `arXiv error: ${reading.message}`, decision: "fail" };
  const ids = reading.feed.entries.map((e) => entryId(e.id).id);
  return { detail: `${ids.length} of ${reading.feed.totalResults ?? "?"} papers [${ids.join(", ")}]` };
}
