// The baseline for the shim's speed: a bare node:http server returning fixed bytes from memory.
// Usage: node --import tsx bench/plain-server.ts BODY_FILE [CONTENT_ENCODING] — prints "listening on URL".
import { readFileSync } from "node:fs";
import http from "node:http";

const body = readFileSync(process.argv[2] as string);
/** An optional Content-Encoding the bytes are sent with (a precompressed body). */
const encoding = process.argv[3];
const headers = {
  "content-type": "application/json; charset=utf-8",
  "content-length": body.length,
  ...(encoding ? { "content-encoding": encoding } : {}),
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
