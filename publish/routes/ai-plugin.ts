// GET /.well-known/ai-plugin.json: the AI plugin manifest pointing agents at the OpenAPI document. Stored in the
// release without the leading dot (storage keys never start with one).
import { noParams } from "../../schemas/index.ts";
import { aiPluginSchema } from "../ai-plugin.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const aiPluginRoute: FileRoute = {
  name: "ai-plugin",
  method: "GET",
  path: "/.well-known/ai-plugin.json",
  kind: "file",
  summary: "The AI plugin manifest",
  description:
    "Names and descriptions for models and people, the authentication (none needed: a key only raises the quota) and the OpenAPI document's URL.",
  tag: "Documents",
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: "well-known/ai-plugin.json",
  contentType: "application/json; charset=utf-8",
  schema: aiPluginSchema,
};
