// Compression on the wire: bytes of the precompressed documents (/api/v1/openapi.json, /docs, /) and of a JSON page
// compressed live (/api/v1/quality?domain=rag, 50 records) as identity, gzip and Brotli (what the shim sends for each
// Accept-Encoding), and requests a second of the Brotli OpenAPI document and of the Brotli page through the shim
// against a bare node:http server sending the same compressed bytes — wrk, 1 thread, 50 connections, the two loads
// interleaved (wrk.ts interleaved), medians of 3.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { median } from "./measure.ts";
import { plainServerArgs, serveArgs, startChild } from "./shim.ts";
import { interleaved, SLICES } from "./wrk.ts";

const PAGE = "/api/v1/quality?domain=rag";
const DOCUMENTS = ["/api/v1/openapi.json", "/docs", "/", PAGE];
const MEASURED = ["/api/v1/openapi.json", PAGE];

/** Needs a state folder holding a published release (the bench runner makes one). */
export async function benchCompression(
  stateDir: string,
  options: { rounds?: number; seconds?: number } = {},
) {
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 5;
  const shim = await startChild(
    serveArgs(stateDir),
    {
      PROJINTEL_QUOTA__ANONYMOUS: "1000000000",
    },
    { pinned: true },
  );
  const tmp = await mkdtemp(path.join(os.tmpdir(), "projintel-compression-"));
  try {
    const wire: Record<string, Record<string, number>> = {};
    for (const url of DOCUMENTS) {
      wire[url] = {};
      for (const encoding of ["identity", "gzip", "br"]) {
        const res = await fetch(shim.url + url, { headers: { "accept-encoding": encoding } });
        // undici decodes bodies: the bytes on the wire are the Content-Length
        wire[url][encoding] = Number(res.headers.get("content-length"));
        await res.arrayBuffer();
      }
    }
    const measured = [];
    for (const url of MEASURED) measured.push(await againstPlain(shim, url, tmp, rounds, seconds));
    return { wire_bytes: wire, measured };
  } finally {
    shim.child.kill("SIGTERM");
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Brotli requests a second of `url` through the shim and through node:http sending the same compressed bytes. */
async function againstPlain(
  shim: { url: string; child: ChildProcess },
  url: string,
  tmp: string,
  rounds: number,
  seconds: number,
) {
  const raw = await rawBody(shim.url + url);
  const bodyFile = path.join(tmp, "body.br");
  await writeFile(bodyFile, raw);
  const plain = await startChild(plainServerArgs(bodyFile, "br"), {}, { pinned: true });
  const headers = ["Accept-Encoding: br"];
  const target = (server: typeof shim) => ({ url: server.url + url, pid: server.child.pid });
  const targets = [target(shim), target(plain)] as const;
  try {
    // warm-up: the page answered once, so the fast path serves it, its Brotli prefix made
    await interleaved(targets, SLICES, { headers });
    const shimRps: number[] = [];
    const plainRps: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const [ofShim, ofPlain] = await interleaved(targets, seconds, { headers });
      shimRps.push(ofShim.rps);
      plainRps.push(ofPlain.rps);
    }
    return {
      url,
      encoding: "br",
      body_bytes: raw.length,
      shim_rps: shimRps.map(Math.round),
      plain_rps: plainRps.map(Math.round),
      median_ratio: Math.round(median(shimRps.map((s, i) => s / (plainRps[i] as number))) * 1000) / 1000,
    };
  } finally {
    plain.child.kill("SIGTERM");
  }
}

/** The body as sent (node:http, which does not decode it). */
async function rawBody(url: string): Promise<Buffer> {
  const http = await import("node:http");
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "br" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks)));
      })
      .on("error", reject);
  });
}
