// Helpers for the simulator's tests: a GraphQL POST over a real socket and the shared real fixtures.
import { readFileSync } from "node:fs";

export interface GraphqlReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes
  body: any;
}

export async function postGraphql(
  base: string,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = "test-token",
): Promise<GraphqlReply> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `bearer ${token}`;
  const response = await fetch(`${base}/github/graphql`, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** A request whose body is read as JSON (status and headers kept), for the non-GraphQL endpoints. */
export async function fetchJson(url: string, init?: RequestInit): Promise<GraphqlReply> {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? undefined : JSON.parse(text),
  };
}

/** A recorded real response from test/fixtures/real/ (see PROVENANCE.md there). */
export function readRealFixture(path: string): unknown {
  return JSON.parse(readFileSync(new URL(`../test/fixtures/real/${path}`, import.meta.url), "utf8"));
}
