// The documents artifact: the OpenAPI document generated from the route table (its examples from this release),
// then what is built on it — the docs page, the index page, the AI plugin manifest with its logo — and the Atom
// feed, each text one with its Brotli and gzip copies. Every one is the same bytes for the same route table and data,
// so an unchanged night rewrites none.
import { DOMAINS } from "../schemas/index.ts";
import { buildAiPlugin, LOGO_SVG } from "./ai-plugin.ts";
import type { Artifact } from "./artifacts.ts";
import { encodedCopies } from "./compression.ts";
import { renderDocsPage } from "./docs-page.ts";
import { feedEntries, renderFeed } from "./feed.ts";
import { renderHomePage } from "./home-page.ts";
import { buildOpenApi } from "./openapi.ts";
import type { FileRoute } from "./route-spec.ts";
import { aiPluginRoute } from "./routes/ai-plugin.ts";
import { docsRoute } from "./routes/docs.ts";
import { feedRoute } from "./routes/feed.ts";
import { homeRoute } from "./routes/home.ts";
import { logoRoute } from "./routes/logo.ts";
import { openapiRoute } from "./routes/openapi.ts";

/** A document at its route's file, served with the route's content type. */
const text = (route: FileRoute, body: string) => ({
  path: route.file as string,
  body: Buffer.from(body, "utf8"),
  contentType: route.contentType,
});

export const renderDocuments: Artifact = async (context, plainWrite) => {
  // each text document with its Brotli and gzip copies beside it (publish/compression.ts)
  const write = async (file: ReturnType<typeof text>) => {
    await plainWrite(file);
    for (const copy of await encodedCopies(file)) await plainWrite(copy);
  };
  const options = { baseUrl: context.baseUrl, contactEmail: context.contactEmail };
  const doc = buildOpenApi(context.routes, { ...options, examples: context.examples });
  await write(text(openapiRoute, `${JSON.stringify(doc, null, 1)}\n`));
  await write(text(docsRoute, renderDocsPage(doc)));
  const projects = context.collections.find((c) => c.name === "projects")?.records ?? 0;
  await write(
    text(homeRoute, renderHomePage(doc, { runDate: context.runDate, projects, domains: DOMAINS.length })),
  );
  await write(text(aiPluginRoute, `${JSON.stringify(buildAiPlugin(options), null, 1)}\n`));
  await write(text(logoRoute, LOGO_SVG));
  const entries = await feedEntries(context.db);
  await write(text(feedRoute, renderFeed(entries, { baseUrl: context.baseUrl, runDate: context.runDate })));
};
