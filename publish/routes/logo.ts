// GET /logo.svg: the service's logo, which the AI plugin manifest names.
import { noParams } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const logoRoute: FileRoute = {
  name: "logo",
  method: "GET",
  path: "/logo.svg",
  kind: "file",
  summary: "The service's logo",
  description: "A 64×64 SVG mark, named by the AI plugin manifest's logo_url.",
  tag: "Documents",
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: "logo.svg",
  contentType: "image/svg+xml",
};
