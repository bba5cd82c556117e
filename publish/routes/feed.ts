// GET /api/v1/feed.atom: an Atom 1.0 feed of lifecycle transitions and new briefings.
import { noParams } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const feedRoute: FileRoute = {
  name: "feed",
  method: "GET",
  path: "/api/v1/feed.atom",
  kind: "file",
  summary: "Atom feed of lifecycle transitions and new briefings",
  description: "The latest lifecycle stage changes and weekly domain briefings, newest first, as Atom 1.0.",
  tag: "Documents",
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: "api/v1/feed.atom",
  contentType: "application/atom+xml; charset=utf-8",
};
