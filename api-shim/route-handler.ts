// The one GET handler: for every route of the route table, validate the query and path with its schemas, answer it
// from the release's collection partitions (or serve its file), and write the envelope with an ETag and the
// route's Cache-Control — records are never parsed, re-serialised or even copied here.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Clock } from "../core/clock.ts";
import {
  answer,
  effectiveQuery,
  type LoadPartition,
  listPage,
  partitionOf,
  recordFinder,
} from "../publish/answer.ts";
import { ENCODINGS, type Encoding, encodedPath } from "../publish/compression.ts";
import {
  type Body,
  compactBody,
  formatTimestamp,
  prepareItemBody,
  prepareRawBody,
} from "../publish/envelope.ts";
import {
  type CollectionRoute,
  cacheControl,
  type FileRoute,
  type FindRecord,
  type RouteSpec,
  type ViewRoute,
} from "../publish/route-spec.ts";
import { BADLY_ENCODED, type ParamErrorCode, parseParams, type RawParams } from "../schemas/index.ts";
import { type FileReadConfig, fileItem, type UncountedConfig } from "./caller.ts";
import { ApiError } from "./errors.ts";
import type { ErrorPageConfig } from "./http/error-page.ts";
import type { PreparedAnswers } from "./http/fast-path.ts";
import { type FileCopy, PreparedReply, sendBody } from "./http/send.ts";
import { chooseEncoding } from "./http/send-encoded.ts";
import { sendReleaseFile } from "./http/send-file.ts";
import type { ReleaseReader } from "./release-reader.ts";

/** A request already seen: its validated parameters and, once answered for the live release, its body. */
interface Valid {
  ok: true;
  params: Record<string, unknown>;
  queryJson: string;
  answeredFor?: string;
  reply?: PreparedReply;
}
type Parsed = Valid | { ok: false; code: ParamErrorCode | "not_found"; message: string };

/**
 * Distinct requests remembered per route. A response depends only on the URL and the release, and most traffic
 * repeats a few URLs, so validation and slicing run once per URL and release. Dropped whole when full.
 */
const CACHE_SIZE = 4096;
const MAX_CACHED_URL = 512;
/**
 * A filtered page is many small slices of a records file; writing 50 chunks per response costs a third of the
 * throughput, so a prepared page is copied into one buffer once. These copies, and the pages' compressed copies
 * (api-shim/send.ts), are what a route's cache may hold.
 */
const COPIED_BYTES = 64 * 1024 * 1024;

/** "/api/v1/projects/{slug}" → "/api/v1/projects/:slug"; a wildcard route's last parameter becomes "*". */
export function fastifyPath(path: string, wildcard = false): string {
  const routed = path.replace(/\{(\w+)\}/g, ":$1");
  return wildcard ? routed.replace(/:\w+$/, "*") : routed;
}

/**
 * meta.timestamp of a response: the clock's time (or `at`, a time the caller already read from it), formatted once
 * per millisecond.
 */
export function createTimestamp(clock: Clock): (at?: Date) => string {
  let stampMs = Number.NaN;
  let stamp = "";
  return (at) => {
    const now = (at ?? clock.now()).getTime();
    if (now !== stampMs) {
      stampMs = now;
      stamp = formatTimestamp(new Date(now));
    }
    return stamp;
  };
}

export function registerRoutes(
  app: FastifyInstance,
  routes: readonly RouteSpec[],
  release: ReleaseReader,
  timestamp: () => string,
  answers: PreparedAnswers,
): void {
  for (const route of routes) {
    if (route.kind === "dynamic") continue;
    if (route.kind === "file") registerFile(app, route, release, timestamp, answers);
    else if (route.kind === "view") registerView(app, route, release, timestamp, answers);
    else registerCollection(app, route, release, timestamp, answers);
  }
}

function registerCollection(
  app: FastifyInstance,
  route: CollectionRoute,
  release: ReleaseReader,
  timestamp: () => string,
  answers: PreparedAnswers,
): void {
  const header = cacheControl(route.cache);
  const byUrl = new Map<string, Parsed>();
  let cachedFor = release.current()?.release_id;
  let copied = 0;

  function parse(request: FastifyRequest): Parsed {
    // A new release: drop the prepared bodies, which hold views into the old release's records.
    const live = release.current()?.release_id;
    if (live !== cachedFor) {
      cachedFor = live;
      forgetAll();
    }
    const known = byUrl.get(request.url);
    if (known) return known;
    const parsed = validate(route, request);
    if (request.url.length <= MAX_CACHED_URL) {
      if (byUrl.size >= CACHE_SIZE) forgetAll();
      byUrl.set(request.url, parsed);
    }
    return parsed;
  }

  function forgetAll() {
    byUrl.clear();
    copied = 0;
    answers.forget(route.name);
  }

  const countCopy = (bytes: number) => {
    copied += bytes;
    if (copied > COPIED_BYTES) forgetAll();
  };

  function remember(url: string, valid: Valid, body: Body): PreparedReply {
    const compact = compactBody(body);
    if (compact !== body) countCopy(compact.chunkBytes);
    const reply = new PreparedReply(compact, header, { onEncoded: countCopy });
    valid.reply = reply;
    valid.answeredFor = release.current()?.release_id;
    if (url.length <= MAX_CACHED_URL) {
      answers.remember(url, { route: route.name, reply, releaseId: valid.answeredFor });
    }
    return reply;
  }

  // Not an async function: when the answer is known or its partition is in memory (nearly always), the response
  // is written at once.
  app.get(fastifyPath(route.path), (request, reply) => {
    const parsed = parse(request);
    if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
    const valid = parsed;
    if (valid.reply && valid.answeredFor === release.current()?.release_id) {
      return sendBody(request, reply, valid.reply, timestamp());
    }
    if (route.kind === "list") {
      const data = release.peekPartition(route.collection.name, partitionOf(route, valid.params));
      if (data) {
        const page = listPage(route, valid.params, data, valid.queryJson);
        return sendBody(request, reply, remember(request.url, valid, page.body), timestamp());
      }
    }
    const load = (collection: string, partition: string) => release.partition(collection, partition);
    return answerFound(route, valid, load).then((body) => {
      sendBody(request, reply, remember(request.url, valid, body), timestamp());
    });
  });
}

/** The body answering validated parameters of a collection route; an item not found is ApiError not_found. */
export async function answerFound(
  route: CollectionRoute,
  valid: { params: Record<string, unknown>; queryJson: string },
  load: LoadPartition,
): Promise<Body> {
  const result = await answer(route, valid.params, load, valid.queryJson);
  if (result.found) return result.body;
  const message = route.notFound
    ? await route.notFound(result.asked, valid.params, recordFinder(load))
    : `Nothing matches ${JSON.stringify(result.asked)}.`;
  throw new ApiError("not_found", message);
}

/**
 * A view (a badge, a page): drawn once per URL and release from its record, then served from the fast path like
 * any answer already prepared. Bounded as the collections' caches are: dropped whole when full.
 */
function registerView(
  app: FastifyInstance,
  route: ViewRoute,
  release: ReleaseReader,
  timestamp: () => string,
  answers: PreparedAnswers,
): void {
  const header = cacheControl(route.cache);
  const drawn = new Map<string, PreparedReply>();
  let drawnFor = release.current()?.release_id;
  let drawnBytes = 0;
  const find = recordFinder((collection, partition) => release.partition(collection, partition));
  const config: UncountedConfig & ErrorPageConfig = {
    uncounted: route.uncounted === true,
    errorPage: route.errorPage,
  };
  const forgetAll = () => {
    drawn.clear();
    drawnBytes = 0;
    answers.forget(route.name);
  };
  // the compressed copies a client asks for count against the same bound as the drawn pages
  const countBytes = (bytes: number) => {
    drawnBytes += bytes;
  };
  app.get(fastifyPath(route.path), { config }, (request, reply) => {
    const live = release.current()?.release_id;
    if (live !== drawnFor) {
      drawnFor = live;
      forgetAll();
    }
    const known = drawn.get(request.url);
    if (known) return sendBody(request, reply, known, timestamp());
    const parsed = validate(route, request);
    if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
    return drawView(route, parsed.params, find).then((text) => {
      const body = prepareRawBody(Buffer.from(text, "utf8"), route.contentType);
      const prepared = new PreparedReply(body, header, { onEncoded: countBytes });
      if (request.url.length <= MAX_CACHED_URL) {
        if (drawn.size >= CACHE_SIZE || drawnBytes > COPIED_BYTES) forgetAll();
        drawn.set(request.url, prepared);
        drawnBytes += body.chunkBytes;
        answers.remember(request.url, {
          route: route.name,
          reply: prepared,
          releaseId: live,
          uncounted: route.uncounted === true,
        });
      }
      sendBody(request, reply, prepared, timestamp());
    });
  });
}

/** A view's document for validated parameters; nothing drawn for a record not found is ApiError not_found. */
async function drawView(
  route: ViewRoute,
  params: Record<string, unknown>,
  find: FindRecord,
): Promise<string> {
  if ("lookupAll" in route) {
    const keys = route.lookupAll(params);
    const records = await Promise.all(keys.map((key) => find(route.collection, key)));
    if (route.notFound && records.every((r) => r === undefined)) {
      throw new ApiError("not_found", route.notFound(keys.map((k) => k.asked).join(", ")));
    }
    return route.renderAll(
      keys.map((key, i) => ({ asked: key.asked, record: records[i] })),
      params,
    );
  }
  const key = route.lookup(params);
  const text = route.render(await find(route.collection, key), params);
  if (text === undefined) {
    throw new ApiError(
      "not_found",
      route.notFound?.(key.asked) ?? `Nothing matches ${JSON.stringify(key.asked)}.`,
    );
  }
  return text;
}

/** Validates path, then query parameters; meta.query echoes both. */
function validate(route: CollectionRoute | FileRoute | ViewRoute, request: FastifyRequest): Parsed {
  let raw = request.params as Record<string, string>;
  if (route.pathParams && route.kind === "file" && route.wildcard) {
    // Fastify names the rest of the path "*"; the spec names it after its last path parameter
    const { "*": rest = "", ...named } = raw;
    const last = Object.keys(route.pathParams.shape).at(-1) as string;
    raw = { ...named, [last]: rest };
  }
  return validateParams(route, raw, request.query as RawParams);
}

/** Validates raw path and query parameters with the route's schemas (also the MCP tools' arguments, api-shim/mcp/). */
export function validateParams(
  route: CollectionRoute | FileRoute | ViewRoute,
  rawPath: Record<string, string>,
  rawQuery: RawParams,
): Parsed {
  let params: Record<string, unknown> = {};
  if (route.pathParams) {
    const path = parseParams(route.pathParams, rawPath);
    if (!path.ok) return { ok: false, code: path.code, message: path.message };
    params = { ...path.value };
  }
  const query = parseParams(
    route.query,
    route.unknownParams === "ignore" ? namedOnly(route.query, rawQuery) : rawQuery,
  );
  if (!query.ok) return { ok: false, code: query.code, message: query.message };
  params = { ...params, ...query.value };
  const echo = route.kind === "file" || route.kind === "view" ? params : effectiveQuery(route, params);
  return { ok: true, params, queryJson: JSON.stringify(echo) };
}

/** The raw parameters `schema` names, the others dropped (a route that ignores unknown parameters). */
function namedOnly(schema: z.ZodObject, raw: RawParams): RawParams {
  const names = new Set(Object.keys(schema.shape));
  if (raw instanceof URLSearchParams) {
    const kept = new URLSearchParams();
    for (const [name, value] of raw) if (names.has(name)) kept.append(name, value);
    return kept;
  }
  const kept: Record<string, string | readonly string[] | undefined> = {};
  for (const [name, value] of Object.entries(raw)) if (names.has(name)) kept[name] = value;
  const badly = raw[BADLY_ENCODED]?.filter((name) => names.has(name));
  return badly?.length ? { ...kept, [BADLY_ENCODED]: badly } : kept;
}

/**
 * A file of the release up to this size, asked again, is answered by the fast path (http/fast-path.ts) from the bytes
 * the release reader keeps anyway: the documents, the domain pages, the small datasets. A larger one is streamed.
 */
const FAST_FILE_MAX_BYTES = 512 * 1024;

function registerFile(
  app: FastifyInstance,
  route: FileRoute,
  release: ReleaseReader,
  timestamp: () => string,
  answers: PreparedAnswers,
): void {
  const header = cacheControl(route.cache);
  // an enveloped document: its body prepared once per release
  let prepared: { for: string; reply: PreparedReply } | undefined;
  // a file served as it is is paid for once a day per caller, however many ranges and HEADs its reader sends
  const config: FileReadConfig & ErrorPageConfig = { fileRead: !route.envelope, errorPage: route.errorPage };
  // the bytes of the files handed to the fast path for the live release (the reader's own buffers, kept alive here)
  let handedFor: string | undefined;
  let handedBytes = 0;

  /** Hands a small file to the fast path: each encoding's bytes as the release holds them, with its ETag. */
  async function handOver(url: string, path: string, encodings: readonly Encoding[]): Promise<void> {
    const live = release.current()?.release_id;
    if (live === undefined || url.length > MAX_CACHED_URL || answers.get(url)?.releaseId === live) return;
    const paths = new Map<Encoding | undefined, string>([[undefined, path]]);
    for (const encoding of encodings) paths.set(encoding, encodedPath(path, encoding));
    const copies = new Map<Encoding | undefined, FileCopy>();
    let bytes = 0;
    for (const [encoding, file] of paths) {
      const entry = release.entry(file);
      if (!entry || entry.bytes > FAST_FILE_MAX_BYTES) return;
      const body = await release.stream(file);
      // kept in storage rather than memory (an operator's lower streamAboveBytes): left to the route
      if (!Buffer.isBuffer(body)) {
        body.destroy();
        return;
      }
      copies.set(encoding, { bytes: body, etag: `"${entry.sha256}"` });
      bytes += body.length;
    }
    if (live !== handedFor || handedBytes + bytes > COPIED_BYTES) {
      answers.forget(route.name);
      handedFor = live;
      handedBytes = 0;
    }
    handedBytes += bytes;
    const identity = copies.get(undefined) as FileCopy;
    const contentType = release.entry(path)?.content_type ?? "application/octet-stream";
    const reply = new PreparedReply(prepareRawBody(identity.bytes, contentType), header, { copies });
    answers.remember(url, { route: route.name, reply, releaseId: live, item: fileItem(url) });
  }

  app.get(fastifyPath(route.path, route.wildcard), { config }, async (request, reply) => {
    const parsed = validate(route, request);
    if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
    const path = typeof route.file === "string" ? route.file : route.file(parsed.params);
    if (!route.envelope) {
      const entry = release.entry(path);
      if (!entry) throw new ApiError("not_found", `This release has no ${path}.`);
      // a precompressed copy when the release has one and the client accepts it: its own bytes, sha256 and ETag
      const available = ENCODINGS.map((e) => e.name).filter((e) => release.entry(encodedPath(path, e)));
      // a whole GET of a small file, with every encoding or none (the fast path offers both or neither)
      if (
        request.method === "GET" &&
        request.headers.range === undefined &&
        (available.length === 0 || available.length === ENCODINGS.length)
      )
        await handOver(request.url, path, available);
      const encoding = chooseEncoding(request.headers["accept-encoding"], available);
      const chosen = encoding ? (release.entry(encodedPath(path, encoding)) ?? entry) : entry;
      const served = {
        path: chosen.path,
        bytes: chosen.bytes,
        sha256: chosen.sha256,
        contentType: entry.content_type,
        contentEncoding: chosen.content_encoding,
        negotiated: available.length > 0,
      };
      return sendReleaseFile(request, reply, release, served, header);
    }
    const file = await release.file(path);
    if (!file) throw new ApiError("not_found", `This release has no ${path}.`);
    const releaseId = release.current()?.release_id ?? "";
    if (prepared?.for !== releaseId || typeof route.file !== "string") {
      prepared = {
        for: releaseId,
        reply: new PreparedReply(prepareItemBody(file.bytes, parsed.queryJson), header),
      };
      // one document whatever the URL's path parameters: the fast path answers it again
      if (typeof route.file === "string" && request.url.length <= MAX_CACHED_URL)
        answers.remember(request.url, { route: route.name, reply: prepared.reply, releaseId });
    }
    sendBody(request, reply, prepared.reply, timestamp());
  });
}
