// Behind a real cache: nginx (Debian's package) running docs/nginx-cache.conf — its ports and paths replaced — with
// proxy_cache in front of two shims on loopback that share one quota store. Public answers (datasets, documents) are
// served from the cache; answers counted against a caller never are, and no answer carries another caller's
// X-RateLimit-*: a hit carries none, a forwarded answer its own caller's. Ranges, encodings and 304s work through it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { asyncBufferFromUrl, parquetMetadataAsync } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api-shim/app.ts";
import { openKeyStore } from "../api-shim/keys/store.ts";
import { openEmbeddedQuotaStore } from "../api-shim/quota/quota.ts";
import { openReleaseReader } from "../api-shim/release-reader.ts";
import { type Fixture, movableClock, publishedFixture } from "../api-shim/testing.ts";
import { loadConfig } from "../core/config.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));
if (!NGINX && process.env.CI !== "true") {
  console.warn("Skipping the nginx cache test: no nginx. Install it with `apt-get install -y nginx`.");
}

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request through node:http (no decoding, no pooling across callers). */
function request(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

const quotaOf = (a: Answer) => [a.headers["x-ratelimit-limit"], a.headers["x-ratelimit-remaining"]];

describe.skipIf(!NGINX && process.env.CI !== "true")("behind nginx proxy_cache", () => {
  let fixture: Fixture;
  let dir: string;
  let proxy: string;
  let nginx: ChildProcess;
  const shims: FastifyInstance[] = [];
  const served = [0, 0];
  const keys: string[] = [];
  const cleanup: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    expect(NGINX, "CI installs nginx (apt-get install -y nginx)").toBeDefined();
    fixture = await publishedFixture();
    dir = await mkdtemp(path.join(tmpdir(), "nginx-cache-"));
    const clock = movableClock("2026-03-02T10:00:00Z");
    const config = loadConfig({
      overrides: { stateDir: fixture.root, trustProxyHops: 1, quota: { anonymous: 100, free: 50 } },
    });
    // two shims on one release and one quota store, as behind a load balancer with Redis
    const quotas = await openEmbeddedQuotaStore();
    const keyStore = await openKeyStore({
      file: path.join(fixture.root, "keys.jsonl"),
      secret: "n".repeat(40),
      limits: { free: config.quota.free, email: config.quota.email },
      clock,
    });
    const ports: number[] = [];
    for (let i = 0; i < 2; i++) {
      const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
      const app = buildApp({ config, release, quotas, clock, keyStore });
      await app.listen({ host: "127.0.0.1", port: 0 });
      app.server.prependListener("request", () => {
        served[i] = (served[i] ?? 0) + 1;
      });
      ports.push((app.server.address() as { port: number }).port);
      shims.push(app);
      cleanup.push(
        () => app.close(),
        async () => release.close(),
      );
    }
    cleanup.push(() => quotas.close());
    for (let i = 0; i < 2; i++) keys.push((await keyStore.create("free")).key);

    const listen = await freePort();
    const conf = (await readFile(path.join(ROOT, "docs", "nginx-cache.conf"), "utf8"))
      .replace("/var/cache/nginx/projintel", path.join(dir, "cache"))
      .replace("server 127.0.0.1:8787;", `server 127.0.0.1:${ports[0]};`)
      .replace("server 127.0.0.1:8788;", `server 127.0.0.1:${ports[1]};`)
      .replace("listen 127.0.0.1:8080;", `listen 127.0.0.1:${listen};`)
      // every temp folder in the test's own: as a user other than root, Debian's defaults under /var/lib/nginx fail
      .replace(
        "http {",
        `http {\n${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `    ${t}_temp_path ${dir}/${t};`).join("\n")}`,
      );
    await mkdir(path.join(dir, "logs"), { recursive: true });
    await writeFile(path.join(dir, "nginx.conf"), conf);
    nginx = spawn(
      NGINX as string,
      [
        "-p",
        dir,
        "-c",
        path.join(dir, "nginx.conf"),
        "-e",
        "stderr",
        "-g",
        // as root, workers would run as nobody, who cannot write the test's private cache folder
        `daemon off; pid ${dir}/nginx.pid;${process.getuid?.() === 0 ? " user root;" : ""}`,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let errors = "";
    nginx.stderr?.on("data", (c) => {
      errors += c;
    });
    proxy = `http://127.0.0.1:${listen}`;
    // nginx answers once it listens
    for (let i = 0; ; i++) {
      const up = await request(`${proxy}/logo.svg`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (i > 100 || nginx.exitCode !== null) throw new Error(`nginx did not start: ${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);
  afterAll(async () => {
    nginx?.kill("SIGTERM");
    if (nginx && nginx.exitCode === null) await new Promise((resolve) => nginx.once("exit", resolve));
    for (const step of cleanup.reverse()) await step();
    await fixture?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("serves the public documents and datasets from the cache, with no caller's quota headers on a hit", async () => {
    const paths = ["/docs", "/api/v1/openapi.json", "/datasets/quality.parquet", "/datasets/quality.arrow"];
    const callers: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${keys[0]}` },
      { authorization: `Bearer ${keys[1]}` },
      {},
      { authorization: `Bearer ${keys[0]}` },
    ];
    const statuses: string[] = [];
    for (const [index, url] of paths.entries()) {
      const bodies = new Set<string>();
      for (const caller of callers) {
        const answer = await request(proxy + url, caller);
        expect(answer.status, url).toBe(200);
        statuses.push(String(answer.headers["x-cache-status"]));
        bodies.add(answer.body.toString("base64"));
        if (answer.headers["x-cache-status"] === "HIT")
          expect(quotaOf(answer), url).toEqual([undefined, undefined]);
        // a miss: the first caller's own standing (the address read the logo at start, then one file each)
        else expect(quotaOf(answer), url).toEqual(["100", String(98 - index)]);
      }
      expect(bodies.size, url).toBe(1);
    }
    const hits = statuses.filter((s) => s === "HIT").length;
    console.info(`nginx hit ratio on public answers: ${hits}/${statuses.length}`);
    expect([hits, statuses.length]).toEqual([16, 20]);
  });

  it("never serves an answer counted against a caller from the cache, so each sees only its own quota", async () => {
    const url = `${proxy}/api/v1/quality?domain=mcp&limit=2`;
    const seen: (string | undefined)[][] = [];
    for (const caller of [keys[0], keys[1], keys[0], undefined, keys[1]]) {
      const answer = await request(url, caller ? { authorization: `Bearer ${caller}` } : {});
      expect([answer.status, answer.headers["x-cache-status"]]).toEqual([200, "MISS"]);
      expect(answer.headers["cache-control"]).toBe("private, max-age=300");
      seen.push(quotaOf(answer) as (string | undefined)[]);
    }
    // the keys' earlier reads were all cache hits, which no shim counted; the address paid for five files
    expect(seen).toEqual([
      ["50", "49"],
      ["50", "49"],
      ["50", "48"],
      ["100", "94"],
      ["50", "48"],
    ]);
  });

  it("passes ranges, encodings and revalidation through, and spreads misses over both shims", async () => {
    const part = await request(`${proxy}/datasets/quality.parquet`, { range: "bytes=-8" });
    expect([part.status, part.body.subarray(4).toString()]).toEqual([206, "PAR1"]);
    const br = await request(`${proxy}/api/v1/openapi.json`, { "accept-encoding": "br" });
    const plain = await request(`${proxy}/api/v1/openapi.json`);
    expect([br.headers["content-encoding"], plain.headers["content-encoding"]]).toEqual(["br", undefined]);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const again = await request(`${proxy}/api/v1/openapi.json`, {
      "if-none-match": String(plain.headers.etag),
    });
    expect(again.status).toBe(304);
    // a real Parquet reader through the cache: a HEAD and ranges
    const file = await asyncBufferFromUrl({ url: `${proxy}/datasets/projects.parquet` });
    expect(Number((await parquetMetadataAsync(file)).num_rows)).toBe(6);
    expect(served.every((n) => n > 0)).toBe(true);
  });
});
