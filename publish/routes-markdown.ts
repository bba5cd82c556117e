// The README's table of endpoints, generated from the route table (a test keeps the README in step): method, path,
// summary and one example request per endpoint; a path parameter is shown as <name>, a slug taken from any list.
import type { RouteSpec } from "./route-spec.ts";

export const ROUTES_BEGIN = "<!-- routes:begin -->";
export const ROUTES_END = "<!-- routes:end -->";

/** The example request of a route, relative to the API's base URL. */
export function exampleRequest(route: RouteSpec): string {
  const examples = route.examples ?? {};
  const inPath = new Set<string>();
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    inPath.add(name);
    return examples[name] ?? `<${name}>`;
  });
  // a <name> placeholder (a value taken from the release, like a path parameter's) stays readable in the query
  const query = new URLSearchParams(Object.entries(examples).filter(([name]) => !inPath.has(name)))
    .toString()
    .replace(/%3C(\w+)%3E/g, "<$1>");
  return query ? `${path}?${query}` : path;
}

export function routesMarkdown(routes: readonly RouteSpec[], baseUrl = "http://localhost:8787"): string {
  const rows = routes.map((r) => {
    const example =
      r.method === "GET" ? `\`curl '${baseUrl}${exampleRequest(r)}'\`` : "see the OpenAPI document";
    return `| ${r.method} | \`${r.path}\` | ${r.summary} | ${example} |`;
  });
  return ["| method | path | what it answers | example |", "|---|---|---|---|", ...rows].join("\n");
}

/** `readme` with the block between the markers replaced by the table. */
export function withRoutesTable(readme: string, routes: readonly RouteSpec[]): string {
  const start = readme.indexOf(ROUTES_BEGIN);
  const end = readme.indexOf(ROUTES_END);
  if (start === -1 || end < start) throw new Error(`README.md has no ${ROUTES_BEGIN} … ${ROUTES_END} block.`);
  return `${readme.slice(0, start + ROUTES_BEGIN.length)}\n${routesMarkdown(routes)}\n${readme.slice(end)}`;
}

export const MCP_TOOLS_BEGIN = "<!-- mcp-tools:begin -->";
export const MCP_TOOLS_END = "<!-- mcp-tools:end -->";

/** The table of MCP tools (docs/api.md): each route with an `mcp` field, its name, endpoint, parameters and summary. */
export function mcpToolsMarkdown(routes: readonly RouteSpec[]): string {
  const rows = routes.flatMap((r) => {
    if (!r.mcp) return [];
    const params = [...Object.keys(r.pathParams?.shape ?? {}), ...Object.keys(r.query.shape)];
    const body = r.kind === "dynamic" && r.body ? Object.keys(r.body.shape) : [];
    const named = [...params, ...body];
    return [
      `| \`${r.mcp.name}\` | \`${r.method} ${r.path}\`${named.length > 0 ? ` (${named.join(", ")})` : ""}: ${r.summary} |`,
    ];
  });
  return ["| tool | answers as |", "|---|---|", ...rows].join("\n");
}

/** `text` with the block between `begin` and `end` replaced by `table`. */
export function withGeneratedBlock(text: string, begin: string, end: string, table: string): string {
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start === -1 || stop < start) throw new Error(`The document has no ${begin} … ${end} block.`);
  return `${text.slice(0, start + begin.length)}\n${table}\n${text.slice(stop)}`;
}
