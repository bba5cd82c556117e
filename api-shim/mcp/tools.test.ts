// The MCP tools come from the route table: a route is a tool when its spec has an `mcp` field, in the table's order,
// named by it; a route that cannot be answered as a tool is refused by name. (Calls are tested over both transports
// against a real release in test/mcp.test.ts; here only the list is built, so no release is read.)
import { describe, expect, it } from "vitest";
import { comparePageRoute } from "../../publish/routes/compare-page.ts";
import { ROUTES } from "../../publish/routes/index.ts";
import { projectRoute } from "../../publish/routes/project.ts";
import type { ReleaseReader } from "../release-reader.ts";
import { createTools, toolRoutes } from "./tools.ts";

// building the list reads nothing from the release: only a call would
const sources = { release: {} as ReleaseReader, timestamp: () => "2026-11-25T00:00:00Z" };

describe("MCP tools from the route table", () => {
  it("lists the routes with an mcp field, in the table's order, each name once, a verb first", () => {
    const routes = toolRoutes();
    expect(routes.map((r) => r.name)).toEqual(ROUTES.filter((r) => r.mcp).map((r) => r.name));
    const names = routes.map((r) => r.mcp?.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^(get|list|search|compare|run)_[a-z_]+$/);
    expect(names).toContain("compare_projects");
  });

  it("makes every one a tool, run_query only with a query service", () => {
    const tools = createTools(sources);
    expect(tools.map((t) => t.name)).toEqual(
      toolRoutes()
        .map((r) => r.mcp?.name)
        .filter((name) => name !== "run_query"),
    );
    const compare = tools.find((t) => t.name === "compare_projects");
    expect(compare?.description).toMatch(/^Compares 2 to 5 projects side by side/);
    expect(compare?.description).toContain("Answers as GET /api/v1/compare does");
    expect(compare?.inputSchema.required).toEqual(["projects"]);
    // without a description of its own, a tool reads the route's
    const project = tools.find((t) => t.name === "get_project");
    expect(project?.description).toBe(
      `${projectRoute.description} Answers as GET ${projectRoute.path} does: the same {data, meta} envelope.`,
    );
  });

  it("refuses a route that cannot be a tool, naming it", () => {
    const page = { ...comparePageRoute, mcp: { name: "get_compare_page" } };
    expect(() => createTools(sources, [page])).toThrow(
      "Route compare-page asks to be the MCP tool get_compare_page, but only GET routes answered from the release and the query route can be",
    );
  });
});
