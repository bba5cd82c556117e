// The byte cap of an MCP answer as sent. A tools/call result carries the tool's answer twice, as text (a JSON string, so
// every quote and backslash escaped once more) and as structuredContent, inside the JSON-RPC response: 2 to 3 times
// the REST body. run_query's answer is cut to rows that fit the cap as sent, with meta.truncated, as the query's own
// byte cap cuts the REST answer.
import { QUERY_LIMITS } from "../../core/query/limits.ts";
import type { QueryResultData } from "../../schemas/index.ts";

/**
 * The most bytes (UTF-8) one JSON-RPC message answering a tools/call may take, framing included: the byte cap of
 * POST /api/v1/query's answer, so run_query over MCP sends no more than the REST endpoint does.
 */
export const MAX_MCP_ANSWER_BYTES = QUERY_LIMITS.maxBytes;

/** The bytes the JSON-RPC response adds around a result's text and structuredContent, for the request `id`. */
export function framingBytes(id: string | number): number {
  const empty = {
    result: { content: [{ type: "text", text: "" }], structuredContent: 0 },
    jsonrpc: "2.0",
    id,
  };
  // minus the empty text's two quotes and the placeholder 0, plus stdio's newline
  return Buffer.byteLength(JSON.stringify(empty)) - 3 + 1;
}

/** The bytes an answer's JSON `text` takes in a tools/call result: escaped as text, and as structuredContent. */
export function resultBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) + Buffer.byteLength(text);
}

export interface QueryAnswer {
  data: QueryResultData;
  meta: Record<string, unknown> & { count: number; truncated: boolean };
}

/**
 * The answer as JSON text whose resultBytes are at most `maxBytes`: all of it when it fits, else its first rows that
 * do, with meta.count their number and meta.truncated true. Only the rows are cut: undefined when not even the answer
 * without rows fits (its columns alone are too large).
 */
export function fitQueryAnswer(answer: QueryAnswer, maxBytes: number): string | undefined {
  const whole = JSON.stringify(answer);
  if (resultBytes(whole) <= maxBytes) return whole;
  const rows = answer.data.rows as unknown[];
  // each row's cost in both forms, and its comma in each; the count's digits may differ: checked on the real text
  const costs = rows.map((row) => resultBytes(JSON.stringify(row)) - 2 + 2);
  const cut = (kept: number) =>
    JSON.stringify({
      data: { ...answer.data, rows: rows.slice(0, kept) },
      meta: { ...answer.meta, count: kept, truncated: true },
    });
  let room = maxBytes - resultBytes(cut(0));
  let kept = 0;
  while (kept < rows.length && room - (costs[kept] as number) >= 0) room -= costs[kept++] as number;
  for (; kept >= 0; kept--) {
    const text = cut(kept);
    if (resultBytes(text) <= maxBytes) return text;
  }
  return undefined;
}
