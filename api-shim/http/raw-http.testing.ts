// Test helpers speaking HTTP/1.1 over a raw TCP socket (so a test can send what no HTTP client would: broken
// request lines, stalls, CONNECT) and reading the bytes back as responses, checked field by field.
import net from "node:net";

export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

export interface Exchange {
  responses: RawResponse[];
  /** Bytes after the last whole response (a cut-off response shows here). */
  trailing: string;
  /** Whether the server ended the connection (rather than the wait running out). */
  closedByServer: boolean;
  ms: number;
}

export interface ExchangeOptions {
  /** Longest wait for the server to close the connection; then the socket is destroyed. */
  waitMs?: number;
  /** Pause between the parts when `request` is an array (a client that stalls mid-request). */
  pauseMs?: number;
  /** Whether the i-th final response answers a HEAD (it has no body whatever its Content-Length). */
  isHead?: (index: number) => boolean;
}

/** Sends `request` (bytes as latin1 text, or parts sent apart) and collects what comes back until the server closes. */
export function exchange(
  port: number,
  request: string | string[],
  options: ExchangeOptions = {},
): Promise<Exchange> {
  const { waitMs = 5000, pauseMs = 0 } = options;
  const parts = typeof request === "string" ? [request] : request;
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const { responses, trailing } = parseResponses(text, options.isHead ?? (() => false));
      resolve({ responses, trailing, closedByServer, ms: Date.now() - started });
    };
    const socket = net.connect({ port, host: "127.0.0.1" }, async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0 && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        if (socket.destroyed) return;
        socket.write(Buffer.from(part, "latin1"));
      }
    });
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    const timer = setTimeout(() => finish(false), waitMs);
  });
}

/** Splits a byte stream into responses: Content-Length or chunked bodies, none for 1xx, 204, 304 and HEAD. */
export function parseResponses(
  text: string,
  isHead: (index: number) => boolean = () => false,
): { responses: RawResponse[]; trailing: string } {
  const responses: RawResponse[] = [];
  let at = 0;
  let finals = 0;
  for (;;) {
    const end = text.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const [statusLine = "", ...lines] = text.slice(at, end).split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) break;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let next = end + 4;
    let body = "";
    const bodiless = status < 200 || status === 204 || status === 304 || isHead(finals);
    if (!bodiless && headers["transfer-encoding"]?.toLowerCase() === "chunked") {
      const chunked = readChunked(text, next);
      if (!chunked) break;
      [body, next] = chunked;
    } else if (!bodiless && headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      if (next + length > text.length) break;
      body = text.slice(next, next + length);
      next += length;
    } else if (!bodiless) {
      // no length: the body runs to the end of the connection
      body = text.slice(next);
      next = text.length;
    }
    responses.push({ status, headers, body: Buffer.from(body, "latin1").toString("utf8") });
    if (status >= 200) finals++;
    at = next;
  }
  return { responses, trailing: text.slice(at) };
}

function readChunked(text: string, from: number): [string, number] | undefined {
  let at = from;
  let body = "";
  for (;;) {
    const eol = text.indexOf("\r\n", at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(text.slice(at, eol), 16);
    if (Number.isNaN(size)) return undefined;
    at = eol + 2;
    if (size === 0) {
      const end = text.indexOf("\r\n", at);
      return end < 0 ? undefined : [body, end + 2];
    }
    if (at + size + 2 > text.length) return undefined;
    body += text.slice(at, at + size);
    at += size + 2;
  }
}
