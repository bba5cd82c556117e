// The service's configuration: one zod schema, parsed once. Defaults live here; environment variables
// prefixed PROJINTEL_ override them (`__` nests: PROJINTEL_QUOTA__FREE=5000 sets quota.free). CLI flags
// are applied by cli/ on top, through the same schema. Nothing else in the code reads process.env.
import path from "node:path";
import { z } from "zod";
import { ConfigError } from "./errors.ts";

const port = z.coerce.number().int().min(0).max(65_535);
const positiveInt = z.coerce.number().int().positive();
const url = z
  .string()
  .url()
  .transform((u) => u.replace(/\/+$/, ""));
const list = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string().min(1)),
);
const bool = z.preprocess(
  (v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v),
  z.boolean(),
);

/**
 * The default discovery keywords: multi-word topics of data/taxonomy.json written as phrases, for the domains
 * whose projects often name themselves in their description rather than tag themselves with the topic.
 */
export const DEFAULT_GITHUB_KEYWORDS: readonly string[] = [
  "model context protocol",
  "retrieval augmented generation",
  "vector database",
  "llm inference",
  "coding agent",
];

/** The release reader's defaults: a 256 MiB cache, the pointer re-read every 10 s. */
export const RELEASE_READER_DEFAULTS = {
  cacheBytes: 256 * 1024 * 1024,
  checkEveryMs: 10_000,
  /** Release files past this size (large Parquet) are streamed from storage per request, never held in memory. */
  streamAboveBytes: 1024 * 1024,
} as const;

/**
 * The publish lock's least wait before its read-back on a store that ignores conditional writes (publish/lock.ts):
 * a request takes milliseconds to a second, so 2 s outlasts a contender's check and lock write.
 */
export const PUBLISH_LOCK_SETTLE_MS = 2000;

export const configSchema = z
  .object({
    /** Folder for the warehouse, HTTP cache, releases and key store. */
    stateDir: z.string().min(1).default("var"),
    /** Base URL of a running simulator; when set, every connector talks to it and the run date is its clock. */
    simUrl: url.optional(),
    host: z.string().min(1).default("127.0.0.1"),
    port: port.default(8787),
    logLevel: z.enum(["debug", "info", "warn", "error"]).default("info"),
    /**
     * Most memory DuckDB's buffer manager may hold for the warehouse (it spills to disk past it), e.g.
     * "1GB" or "512MB". At 512 MB, scoring 220,000 repositories on a warehouse restored with a year of history ran out
     * of it in projects.sql (an operator that cannot spill), so the default is 1 GB, as docs/cli.md says.
     */
    warehouseMemoryLimit: z
      .string()
      .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'a size such as "1GB" or "512MB"')
      .default("1GB"),
    quota: z
      .object({
        anonymous: positiveInt.default(100),
        free: positiveInt.default(1000),
        email: positiveInt.default(10_000),
        /** Keys one client address may create a day (POST /api/v1/keys). */
        keyCreations: positiveInt.default(10),
        /** Where counters live: `embedded` (one shim owns the state folder) or `redis` (several shims share one). */
        store: z.enum(["embedded", "redis"]).default("embedded"),
      })
      .strict()
      .default({ anonymous: 100, free: 1000, email: 10_000, keyCreations: 10, store: "embedded" }),
    /** The Redis server of the `redis` quota store (PROJINTEL_QUOTA__STORE=redis). */
    redis: z
      .object({
        url: z
          .string()
          .regex(/^rediss?:\/\/[^\s]+$/, "a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0")
          .default("redis://127.0.0.1:6379"),
        /** Longest wait for one Redis command, so a request never hangs on a stalled server (then 503). */
        commandTimeoutMs: positiveInt.max(60_000).default(500),
      })
      .strict()
      .default({ url: "redis://127.0.0.1:6379", commandTimeoutMs: 500 }),
    /**
     * Secret keying the HMACs of API keys and client addresses (at least 32 characters); a secret, so only
     * from the environment (PROJINTEL_SERVER_SECRET). When unset, one is created in the state folder (mode 0600).
     */
    serverSecret: z.string().min(32).optional(),
    /** How many reverse-proxy hops to trust in X-Forwarded-For when telling anonymous callers apart. */
    trustProxyHops: z.coerce.number().int().min(0).max(10).default(0),
    /**
     * The shim's HTTP server: how long a client may take to send a request's headers and the whole request (then
     * 408 request_timeout), how long an idle keep-alive connection stays open, and how long a connection may stay
     * with nothing moving either way (a reader that stopped reading its answers) before it is closed, so stalled
     * readers cannot hold answers in the shim's memory.
     */
    shimServer: z
      .object({
        headersTimeoutMs: positiveInt.default(10_000),
        requestTimeoutMs: positiveInt.default(30_000),
        keepAliveTimeoutMs: positiveInt.default(5000),
        idleTimeoutMs: positiveInt.default(30_000),
      })
      .strict()
      .refine((s) => s.headersTimeoutMs <= s.requestTimeoutMs, {
        message: "headersTimeoutMs must not exceed requestTimeoutMs (the headers are part of the request)",
      })
      .default({
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5000,
        idleTimeoutMs: 30_000,
      }),
    /**
     * How the shim reads the release it serves (api-shim/release-reader.ts), from the state folder or a bucket
     * (`serve --release`): the most bytes of pages and indexes kept in memory, and how often the pointer
     * (releases/current.json) is re-read to pick up a new release, and past which size a file is streamed per request.
     */
    release: z
      .object({
        cacheBytes: positiveInt.default(RELEASE_READER_DEFAULTS.cacheBytes),
        checkEveryMs: positiveInt.default(RELEASE_READER_DEFAULTS.checkEveryMs),
        streamAboveBytes: positiveInt.default(RELEASE_READER_DEFAULTS.streamAboveBytes),
      })
      .strict()
      .default({ ...RELEASE_READER_DEFAULTS }),
    http: z
      .object({
        timeoutMs: positiveInt.default(30_000),
        retries: z.coerce.number().int().min(0).max(10).default(4),
        perHostConcurrency: positiveInt.default(16),
        /** Longest wait the client accepts for a Retry-After or rate-limit reset before giving up. */
        maxRetryWaitMs: z.coerce.number().int().min(0).default(120_000),
        userAgent: z.string().min(1).default("projintel/0.1 (+https://github.com/projintel/projintel)"),
      })
      .strict()
      .default({
        timeoutMs: 30_000,
        retries: 4,
        perHostConcurrency: 16,
        maxRetryWaitMs: 120_000,
        userAgent: "projintel/0.1 (+https://github.com/projintel/projintel)",
      }),
    github: z
      .object({
        graphqlUrl: url.default("https://api.github.com/graphql"),
        restUrl: url.default("https://api.github.com"),
        /** Tokens used in rotation; secrets, so only from the environment (PROJINTEL_GITHUB__TOKENS=a,b). */
        tokens: list.default([]),
        /** Topics searched to discover repositories. */
        topics: list.default([]),
        /**
         * Phrases searched in repository names and descriptions (`"<phrase>" in:name,description`), to find
         * repositories that carry none of the topics. Short on purpose: each costs a search sweep; [] for none.
         */
        keywords: list.default([...DEFAULT_GITHUB_KEYWORDS]),
        /** A file of seed repositories (owner/name a line, e.g. data/seeds/github.txt); none when empty. */
        seedFile: z.string().default(""),
        /**
         * How a night looks for repositories it does not track yet. `tiered`: each search term in full once a week
         * (on its own day) and over recently created repositories the other nights; `full`: every term in full;
         * `off`: no search and no seeds, only the tracked repositories are refreshed, except on a first night (the
         * demo's replayed earlier nights, whose last night then searches in full).
         */
        discovery: z.enum(["tiered", "full", "off"]).default("tiered"),
        /** Tiers of the full details refresh (pipeline/schedule/tiers.ts); the rest get the light query. */
        refresh: z
          .object({
            hotShare: z.coerce.number().min(0).max(1).default(0.05),
            warmShare: z.coerce.number().min(0).max(1).default(0.2),
            warmDays: z.coerce.number().int().min(1).max(30).default(3),
            coldDays: z.coerce.number().int().min(1).max(30).default(7),
          })
          .strict()
          .default({ hotShare: 0.05, warmShare: 0.2, warmDays: 3, coldDays: 7 }),
        /**
         * REST requests per token a night may spend (github_rest source: star history of new repositories
         * first, then contributor counts and activity); 304s are free, the budget is this times the number of
         * tokens. A token has 5,000 requests an hour (primary limit) shared with the day's other uses; 2,700 leaves
         * about half of it and is three windows of GitHub's secondary limit of 900 a minute
         * (pipeline/collect/pace.ts). It is what a shard of 220,000 repositories needs: about 24,600 with 100+
         * stars, each counted within 14 days (1,896 a night, pipeline/schedule/contributors.ts), and the rest for
         * the activity. 0 turns REST off.
         */
        restBudget: z.coerce.number().int().min(0).default(2700),
        /**
         * Milliseconds to wait before asking again for commit statistics GitHub is still computing (202): GitHub
         * needs a few seconds. The demo and replayed nights, against a simulator that computes at once, wait less.
         */
        statsRetryMs: z.coerce.number().int().min(0).max(60_000).default(5000),
      })
      .strict()
      .default({
        graphqlUrl: "https://api.github.com/graphql",
        restUrl: "https://api.github.com",
        tokens: [],
        topics: [],
        keywords: [...DEFAULT_GITHUB_KEYWORDS],
        seedFile: "",
        discovery: "tiered",
        refresh: { hotShare: 0.05, warmShare: 0.2, warmDays: 3, coldDays: 7 },
        restBudget: 2700,
        statsRetryMs: 5000,
      }),
    pypi: z
      .object({
        url: url.default("https://pypi.org"),
        statsUrl: url.default("https://pypistats.org"),
      })
      .strict()
      .default({ url: "https://pypi.org", statsUrl: "https://pypistats.org" }),
    npm: z
      .object({
        registryUrl: url.default("https://registry.npmjs.org"),
        downloadsUrl: url.default("https://api.npmjs.org"),
      })
      .strict()
      .default({ registryUrl: "https://registry.npmjs.org", downloadsUrl: "https://api.npmjs.org" }),
    dockerhub: z
      .object({ url: url.default("https://hub.docker.com") })
      .strict()
      .default({ url: "https://hub.docker.com" }),
    huggingface: z
      .object({ url: url.default("https://huggingface.co") })
      .strict()
      .default({ url: "https://huggingface.co" }),
    hackernews: z
      .object({ url: url.default("https://hn.algolia.com") })
      .strict()
      .default({ url: "https://hn.algolia.com" }),
    arxiv: z
      .object({ url: url.default("https://export.arxiv.org") })
      .strict()
      .default({ url: "https://export.arxiv.org" }),
    /**
     * Where the service's objects live beyond this machine: `s3://bucket/prefix` (an S3-compatible bucket; endpoint,
     * region and credentials from the standard AWS variables such as AWS_ENDPOINT_URL_S3, AWS_REGION,
     * AWS_ACCESS_KEY_ID) or a local folder. Releases go to `<remote>/releases/`, the durable state (history
     * partitions, ETag cache, tracked repositories) to `<remote>/state/`, collection shards to `<remote>/nights/`.
     * Unset: everything stays in the state folder. `--remote`, `publish --target` and `serve --release` override it.
     */
    remote: z.string().min(1).optional(),
    /** The S3 client of an `s3://` remote (core/storage-s3.ts). */
    s3: z
      .object({
        /** Path-style URLs (http://host/bucket/key), for servers without virtual-host buckets (MinIO, s3rver). */
        forcePathStyle: bool.default(false),
        /**
         * When the SDK computes request checksums and validates response ones: `when_supported` or `when_required`
         * (for servers that store a streamed upload with its aws-chunked framing instead of the bytes, like s3rver).
         * Unset, the SDK's own configuration decides (AWS_REQUEST_CHECKSUM_CALCULATION,
         * AWS_RESPONSE_CHECKSUM_VALIDATION, or request_checksum_calculation in the AWS profile; WHEN_SUPPORTED by
         * default), so a setting made the usual way for the SDK is honoured.
         */
        checksumMode: z.enum(["when_supported", "when_required"]).optional(),
        /** Uploads, copies and reads in flight at once. */
        concurrency: positiveInt.max(256).default(16),
        /** Objects past this size go up in parts of this size (MiB, at least 5 as S3 requires). */
        partSizeMib: z.coerce.number().int().min(5).max(5120).default(8),
        /** Attempts of one request (the first included) before an error is given up on. */
        maxAttempts: positiveInt.max(20).default(5),
      })
      .strict()
      .default({
        forcePathStyle: false,
        concurrency: 16,
        partSizeMib: 8,
        maxAttempts: 5,
      }),
    publish: z
      .object({
        /** Smallest share of the previous release's project count a new release may have (shrink gate). */
        minShareOfPrevious: z.coerce.number().min(0).max(1).default(0.9),
        /** Releases kept besides the current one. */
        keepReleases: z.coerce.number().int().min(0).default(3),
        /**
         * Days an old release is kept at least, however many newer ones there are: a release is pruned only when it
         * is beyond keepReleases AND older than this, so a CDN or shim still reading it never sees it vanish after a
         * burst of publishes. 0: by count alone.
         */
        retentionDays: z.coerce.number().min(0).max(3650).default(0),
        /**
         * Least wait (ms) before a publisher reads its lock back on a store that ignores conditional writes (s3rver;
         * AWS S3, MinIO, R2 and a folder honour If-None-Match and wait only to take over a dead publisher's lock).
         * Two publishers started together are told apart only when it outlasts the slower one's check and lock
         * write; lower it only for a prefix that one publisher writes at a time (a test's own bucket). A publisher
         * whose own check and write took longer waits twice that instead.
         */
        lockSettleMs: z.coerce.number().int().min(0).max(60_000).default(PUBLISH_LOCK_SETTLE_MS),
        canonicalPages: bool.default(true),
        /**
         * Where the API is reached by its users: absolute links of the OpenAPI document and docs page, the AI plugin
         * manifest, the Atom feed, the dataset index and the badge Markdown are made from it. Unset, it is where
         * `serve` listens on this machine (localBaseUrl of host and port), so a demo on another port links to itself.
         */
        baseUrl: url.optional(),
        /** Contact address of the AI plugin manifest and the OpenAPI document (example.org until set). */
        contactEmail: z.email().default("api@example.org"),
      })
      .strict()
      .default({
        minShareOfPrevious: 0.9,
        keepReleases: 3,
        retentionDays: 0,
        lockSettleMs: PUBLISH_LOCK_SETTLE_MS,
        canonicalPages: true,
        contactEmail: "api@example.org",
      }),
  })
  .strict()
  .transform((config) => ({
    ...config,
    publish: { ...config.publish, baseUrl: config.publish.baseUrl ?? localBaseUrl(config.host, config.port) },
  }));

/** Listening addresses a link from this machine reaches as localhost (loopback, or every interface). */
const LOCAL_HOSTS = new Set(["127.0.0.1", "::1", "0.0.0.0", "::", "localhost"]);

/** The base URL of a shim listening on host:port, as a user on this machine types it (http://localhost:8787). */
export function localBaseUrl(host: string, port: number): string {
  const name = LOCAL_HOSTS.has(host) ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

const PREFIX = "PROJINTEL_";

function camel(segment: string): string {
  return segment.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Turns PROJINTEL_* variables into a nested object: PROJINTEL_HTTP__TIMEOUT_MS -> { http: { timeoutMs } }. */
export function envOverrides(env: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(PREFIX) || value === undefined || value === "") continue;
    const keys = name.slice(PREFIX.length).split("__").map(camel);
    let node = out;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      node[key] = typeof next === "object" && next !== null ? next : {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys[keys.length - 1] as string] = value;
  }
  return out;
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const prev = out[key];
    out[key] =
      typeof value === "object" && value !== null && !Array.isArray(value) && typeof prev === "object" && prev
        ? merge(prev as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

function envName(pathParts: PropertyKey[]): string {
  return (
    PREFIX +
    pathParts
      .map((p) =>
        String(p)
          .replace(/[A-Z]/g, (c) => `_${c}`)
          .toUpperCase(),
      )
      .join("__")
  );
}

/**
 * Parses the configuration from defaults, the environment and explicit overrides (CLI flags), in that order
 * of precedence from lowest to highest. Throws ConfigError naming the variable and what it accepts.
 */
export function loadConfig(
  options: {
    env?: Record<string, string | undefined>;
    overrides?: ConfigInput | Record<string, unknown>;
  } = {},
): Config {
  const raw = merge(envOverrides(options.env ?? {}), (options.overrides ?? {}) as Record<string, unknown>);
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue ? envName(issue.path) : PREFIX;
  const message =
    issue?.code === "unrecognized_keys"
      ? `Unknown setting ${issue.keys.map((k) => envName([...issue.path, k])).join(", ")}.`
      : `Invalid setting ${where}: ${issue?.message ?? "invalid value"}.`;
  throw new ConfigError(message, "Fix or unset it; docs/cli.md lists every setting with its default.");
}

/** Absolute paths of the folders under the state folder. */
export function statePaths(config: Pick<Config, "stateDir">) {
  const root = path.resolve(config.stateDir);
  return {
    root,
    warehouse: path.join(root, "warehouse.duckdb"),
    runs: path.join(root, "runs"),
    releases: path.join(root, "releases"),
    quotas: path.join(root, "quotas.jsonl"),
    quotaLock: path.join(root, "quotas.lock"),
    keys: path.join(root, "keys.jsonl"),
    secret: path.join(root, "server-secret"),
    quarantine: path.join(root, "quarantine"),
    history: path.join(root, "history"),
    /** The history packed by month for the release's datasets, kept between publishes (publish/dataset-months.ts). */
    packedHistory: path.join(root, "packed-history"),
    /** The HTTP ETag cache (pipeline/collect/etag-store.ts). */
    etags: path.join(root, "etags"),
  };
}
