// The baseline for the shim's speed: a bare node:http server returning fixed bytes from memory.
// Usage: node --import tsx bench/plain-server.ts BODY_FILE [CONTENT_ENCODING] [HEADERS_JSON_FILE] — prints
// "listening on URL". HEADERS_JSON_FILE (an object of header names and values) replaces the content type and
// encoding: the same head as another server's answer, sent as it is.
import { readFileSync } from "node:fs";
import http from "node:http";

const body = readFileSync(process.argv[2] as string);
/** An optional Content-Encoding the bytes are sent with (a precompressed body). */
const encoding = process.argv[3];
const given = process.argv[4];
const headers = {
  ...(given
    ? (JSON.parse(readFileSync(given, "utf8")) as Record<string, string>)
    : {
        "content-type": "application/json; charset=utf-8",
        ...(encoding ? { "content-encoding": encoding } : {}),
      }),
  "content-length": body.length,
};
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object")
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
