// A metering proxy in front of an S3-compatible server: every request passes through unchanged, and the bytes and
// objects that went down (object GETs) and up (PUTs, multipart completions; copies counted apart) are added up, so a
// benchmark can say what each stage of a night transferred. Children reach it through AWS_ENDPOINT_URL_S3.
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface Transfer {
  down_bytes: number;
  down_objects: number;
  up_bytes: number;
  up_objects: number;
  copies: number;
  lists: number;
}

const empty = (): Transfer => ({
  down_bytes: 0,
  down_objects: 0,
  up_bytes: 0,
  up_objects: 0,
  copies: 0,
  lists: 0,
});

export async function startS3Meter(
  target: string,
): Promise<{ url: string; take(): Transfer; close(): Promise<void> }> {
  const upstream = new URL(target);
  let counts = empty();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://meter");
    // path style: /<bucket>/<key>; a GET of the bucket alone is a listing
    const hasKey = url.pathname.split("/").filter(Boolean).length > 1;
    const method = req.method ?? "GET";
    const proxied = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method,
        path: req.url,
        headers: req.headers,
      },
      (upstreamRes) => {
        const ok = (upstreamRes.statusCode ?? 500) < 300;
        res.writeHead(upstreamRes.statusCode ?? 500, upstreamRes.headers);
        upstreamRes.on("data", (chunk: Buffer) => {
          // an object's bytes, not an error's body (a 404 for a missing key)
          if (ok && method === "GET" && hasKey) counts.down_bytes += chunk.length;
        });
        upstreamRes.pipe(res);
        upstreamRes.on("end", () => {
          if (!ok) return;
          if (method === "GET" && hasKey) counts.down_objects++;
          else if (method === "GET") counts.lists++;
          else if (method === "PUT" && req.headers["x-amz-copy-source"]) counts.copies++;
          else if (method === "PUT" && !url.searchParams.has("partNumber")) counts.up_objects++;
          else if (method === "POST" && url.searchParams.has("uploadId")) counts.up_objects++;
        });
      },
    );
    proxied.on("error", (error) => {
      res.destroy(error);
    });
    req.on("data", (chunk: Buffer) => {
      if (method === "PUT" || method === "POST") counts.up_bytes += chunk.length;
    });
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const out = counts;
      counts = empty();
      return out;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
