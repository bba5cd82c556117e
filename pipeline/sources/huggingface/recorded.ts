// The `recorded` hook of Hugging Face (see ../recorded.ts): parses a recorded model info. A 307 (legacy id,
// plain-text body) is followed by the HTTP client in a run; recorded alone, the legacy id itself is skipped.
import { header } from "../../collect/http-decision.ts";
import { type RecordedResponse, type RecordedVerdict, UnknownKindError } from "../recorded.ts";
import { arxivIdsOf, modelIdOfLocation } from "./links.ts";
import { modelInfoSchema } from "./schemas.ts";

export function parseHuggingfaceRecorded(response: RecordedResponse): RecordedVerdict {
  const { kind, status, headers, body } = response;
  if (kind !== "model-info") throw new UnknownKindError("huggingface", kind);
  if (status >= 300 && status < 400) {
    const location = header(headers, "location");
    const target = location === undefined ? undefined : modelIdOfLocation(location);
    if (target === undefined) throw new Error(`a ${status} without a model Location`);
    return { detail: `${status} redirect to ${target}, fetched under that id`, decision: "skip" };
  }
  if (status !== 200) return { detail: `status ${status}` };
  const model = modelInfoSchema.parse(body);
  const arxiv = arxivIdsOf(model.tags ?? []);
  return {
    detail: `${model.id}: ${model.downloads} downloads, ${model.likes} likes, arXiv [${arxiv.join(", ")}]`,
  };
}
