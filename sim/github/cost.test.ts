// Point cost and static limits, checked against GitHub's documented formula and error messages.
import {
  type FragmentDefinitionNode,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
  validate,
} from "graphql";
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "./cost.ts";
import { githubSchema } from "./schema.ts";

function analyze(query: string, variables: Record<string, unknown> = {}) {
  const schema = githubSchema();
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const operation = getOperationAST(document);
  if (!operation) throw new Error("no operation");
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  return analyzeQuery(schema, operation, fragments, coerced.coerced ?? {});
}

const ids = (n: number) => Array.from({ length: n }, (_, k) => `R_kgDO${k}`);

describe("analyzeQuery cost", () => {
  it("charges at least one point", () => {
    expect(analyze("{ viewer { login } rateLimit { cost } }")).toEqual({
      requests: 0,
      nodeCount: 0,
      cost: 1,
      errors: [],
    });
  });

  it("multiplies inner connections by the number of node ids", () => {
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Repository {
      releases(first: 10) { nodes { tagName } }
      stargazers(first: 10) { edges { starredAt } } } } }`;
    // 1 (nodes) + 100 × 1 (releases) + 100 × 1 (stargazers) = 201 requests → 2 points.
    expect(analyze(query, { ids: ids(100) })).toEqual({
      requests: 201,
      nodeCount: 2100,
      cost: 2,
      errors: [],
    });
  });

  it("reproduces GitHub's documented example: 5,101 requests are 51 points", () => {
    const query = `{ search(type: REPOSITORY, query: "rag", first: 100) { nodes { ... on Repository {
      defaultBranchRef { target { ... on Commit { history(first: 50) { nodes { history(first: 60) { totalCount } } } } } } } } } }`;
    expect(analyze(query)).toEqual({ requests: 5101, nodeCount: 305_100, cost: 51, errors: [] });
  });

  it("counts totalCount-only connections as one request each, through named fragments", () => {
    const query = `query { repository(owner: "a", name: "b") { ...Counts } }
      fragment Counts on Repository { issues(states: OPEN) { totalCount } pullRequests { totalCount } }`;
    expect(analyze(query)).toEqual({ requests: 2, nodeCount: 0, cost: 1, errors: [] });
  });

  it("rounds to the nearest point", () => {
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Repository {
      a: stargazers(first: 1) { totalCount } b: stargazers(first: 1) { totalCount } c: stargazers(first: 1) { totalCount } } } }`;
    expect(analyze(query, { ids: ids(50) }).cost).toBe(2); // 151 requests
    expect(analyze(query, { ids: ids(16) }).cost).toBe(1); // 49 requests round to 0, and the minimum is 1
  });
});

describe("analyzeQuery limits", () => {
  it("refuses first or last above 100 with GitHub's EXCESSIVE_PAGINATION error", () => {
    const result = analyze(
      `{ repository(owner: "a", name: "b") { releases(first: 101) { nodes { tagName } } } }`,
    );
    expect(result.errors).toEqual([
      {
        type: "EXCESSIVE_PAGINATION",
        path: ["repository", "releases"],
        locations: [{ line: 1, column: 39 }],
        message:
          "Requesting 101 records on the `releases` connection exceeds the `first` limit of 100 records.",
      },
    ]);
  });

  it("requires first or last only when a connection lists its items", () => {
    expect(analyze(`{ repository(owner: "a", name: "b") { stargazers { totalCount } } }`).errors).toEqual([]);
    const result = analyze(
      `{ repository(owner: "a", name: "b") { stars: stargazers { edges { starredAt } } } }`,
    );
    expect(result.errors.map((e) => [e.type, e.path, e.message])).toEqual([
      [
        "MISSING_PAGINATION_BOUNDARIES",
        ["repository", "stars"],
        "You must provide a `first` or `last` value to properly paginate the `stargazers` connection.",
      ],
    ]);
  });

  it("refuses more than 100 node ids with GitHub's ARGUMENT_LIMIT error", () => {
    const result = analyze(`query($ids: [ID!]!) { batch: nodes(ids: $ids) { id } }`, { ids: ids(101) });
    expect(result.errors.map((e) => [e.type, e.path, e.message])).toEqual([
      ["ARGUMENT_LIMIT", ["batch"], "You may not provide more than 100 node ids; you provided 101."],
    ]);
  });

  it("refuses calls that may return more than 500,000 nodes", () => {
    const query = `{ search(type: REPOSITORY, query: "x", first: 100) { nodes { ... on Repository {
      defaultBranchRef { target { ... on Commit { history(first: 100) { nodes { history(first: 100) { nodes { oid } } } } } } } } } } }`;
    expect(analyze(query).errors).toEqual([
      {
        type: "MAX_NODE_LIMIT_EXCEEDED",
        message:
          "This query requests up to 1,010,100 possible nodes which exceeds the maximum limit of 500,000.",
      },
    ]);
  });
});
