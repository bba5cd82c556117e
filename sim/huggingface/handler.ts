// Hugging Face Hub under /huggingface: GET /api/models?author=X[&limit=N] (list), GET /api/models/{id}
// (model info; a legacy id without namespace answers 307 to the canonical one, as recorded), and the
// model card at GET /{id}/raw/main/README.md.
import { type HttpReply, jsonReply, type SimRequest } from "../http/reply.ts";
import { linksOf } from "../links.ts";
import type { World } from "../world.ts";
import { modelCard, modelCreated, modelInfo, modelListItem } from "./model-info.ts";

const NOT_FOUND: HttpReply = {
  status: 404,
  headers: { "content-type": "application/json; charset=utf-8", "x-error-code": "RepoNotFound" },
  body: JSON.stringify({ error: "Repository not found" }),
};

export function createHuggingFaceHandler(world: World, now: () => number) {
  const links = () => linksOf(world);
  const find = (id: string) => {
    const found = links().findModel(id);
    return found && modelCreated(world, found.index, found.k) <= now() ? found : undefined;
  };

  return (req: SimRequest): HttpReply => {
    if (req.method !== "GET") return NOT_FOUND;
    if (req.path === "/api/models") {
      const author = req.params.get("author");
      if (!author)
        return jsonReply(400, { error: "Only lists by author are simulated: pass author=<namespace>." });
      const limit = Number.parseInt(req.params.get("limit") ?? "1000", 10);
      const models = links()
        .modelsByAuthor(author)
        .filter(({ index, k }) => modelCreated(world, index, k) <= now())
        .slice(0, Number.isFinite(limit) && limit > 0 ? limit : 1000);
      return jsonReply(
        200,
        models.map(({ index, k }) => modelListItem(world, index, k, now())),
      );
    }
    const info = /^\/api\/models\/([^/]+(?:\/[^/]+)?)\/?$/.exec(req.path);
    if (info) {
      const id = decodeURIComponent(info[1] as string);
      const canonical = id.includes("/") ? undefined : links().legacyModel(id);
      if (canonical) {
        const location = `/huggingface/api/models/${canonical}`;
        return {
          status: 307,
          headers: { "content-type": "text/plain; charset=utf-8", location },
          body: `Temporary Redirect. Redirecting to ${location}`,
        };
      }
      const found = find(id);
      return found ? jsonReply(200, modelInfo(world, found.index, found.k, now())) : NOT_FOUND;
    }
    const card = /^\/([^/]+\/[^/]+)\/raw\/main\/README\.md$/.exec(req.path);
    const found = card ? find(decodeURIComponent(card[1] as string)) : undefined;
    if (!found) return NOT_FOUND;
    return {
      status: 200,
      headers: { "content-type": "text/markdown; charset=utf-8" },
      body: modelCard(world, found.index, found.k),
    };
  };
}
