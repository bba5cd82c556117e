// Quota-checked GET throughput: the same shim and URL with the embedded store, the Redis store (a real
// redis-server on loopback) and no store at all (a no-op QuotaStore), measured in alternating wrk rounds in one
// run; each store's figure is its ratio to the store-less one (targets: 0.8x embedded, 0.6x Redis).
import { once } from "node:events";
import path from "node:path";
import { startRedisServer } from "../test/redis-server.ts";
import { median } from "./measure.ts";
import { startChild } from "./shim.ts";
import { wrk } from "./wrk.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const QUERY = "/api/v1/quality?domain=rag";
const STORES = ["none", "embedded", "redis"] as const;

/** Needs a state folder holding a published release. */
export async function benchQuotaStores(
  stateDir: string,
  options: { rounds?: number; seconds?: number } = {},
) {
  const rounds = options.rounds ?? 5;
  const seconds = options.seconds ?? 5;
  const redis = await startRedisServer();
  const shims: Awaited<ReturnType<typeof startChild>>[] = [];
  try {
    for (const store of STORES) {
      shims.push(
        await startChild(["--import", "tsx", path.join(ROOT, "bench", "quota-shim.ts"), stateDir, store], {
          PROJINTEL_REDIS__URL: redis.url,
        }),
      );
    }
    const urls = shims.map((s) => s.url + QUERY);
    for (const url of urls) {
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      await wrk(url, 2); // warm-up
    }
    const rps: number[][] = STORES.map(() => []);
    for (let i = 0; i < rounds; i++) {
      for (const [s, url] of urls.entries()) rps[s]?.push((await wrk(url, seconds)).rps);
    }
    const [none = [], embedded = [], viaRedis = []] = rps;
    const ratio = (of: number[]) =>
      Math.round(median(of.map((r, i) => r / (none[i] as number))) * 1000) / 1000;
    return {
      query: QUERY,
      rounds,
      seconds,
      no_store_rps: none,
      embedded_rps: embedded,
      redis_rps: viaRedis,
      median_no_store_rps: median(none),
      median_embedded_rps: median(embedded),
      median_redis_rps: median(viaRedis),
      median_embedded_ratio: ratio(embedded),
      median_redis_ratio: ratio(viaRedis),
      target_embedded_ratio: 0.8,
      target_redis_ratio: 0.6,
    };
  } finally {
    for (const shim of shims) {
      const exited = once(shim.child, "exit");
      shim.child.kill("SIGTERM");
      await exited;
    }
    await redis.close();
  }
}
