// GET /api/v1/papers: arXiv papers implemented by tracked projects, newest first, searched by title, filtered by the
// domains of their projects and optionally by a look-back in days (a rank range on each paper's age), paged.
import { paperSchema, papersParams } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";
import { lastDays } from "./whats-new.ts";

export const PAPERS_COLLECTION: CollectionSpec = {
  name: "papers",
  sql: "papers",
  record: paperSchema,
  filters: ["domain"],
  rank: { order: "asc" },
  search: true,
};

export const papersRoute: CollectionRoute = {
  name: "papers",
  method: "GET",
  path: "/api/v1/papers",
  kind: "list",
  summary: "Research papers implemented by tracked projects",
  description:
    "arXiv papers linked from tracked repositories (their description, homepage or Hugging Face models), newest first by first publication: id, title, authors, abstract, dates, categories, links, and the projects implementing each, most stars first. q searches titles (exact, then prefix, then substring, case-insensitive); domain keeps papers with a project of that domain; days keeps those first published in the last days (every paper when omitted).",
  tag: "Digests",
  query: papersParams,
  cache: NIGHTLY_PRIVATE,
  collection: PAPERS_COLLECTION,
  filters: { domain: "domain" },
  search: "q",
  range: lastDays,
  paging: { limit: "limit", offset: "offset" },
  examples: { q: "llm", limit: "10" },
};
