// The documents artifact: the OpenAPI document generated from the route table (its examples from this release),
// then what is built on it — the docs page, the index page, the AI plugin manifest with its logo — and the Atom
// feed. Every one is the same bytes for the same route table and data, so an unchanged night rewrites none.
import { DOMAINS } from "../schemas/index.ts";
import { buildAiPlugin, LOGO_SVG } from "./ai-plugin.ts";
import type { Artifact } from "./artifacts.ts";
import { renderDocsPage } from "./docs-page.ts";
import { feedEntries, renderFeed } from "./feed.ts";
import { renderHomePage } from "./home-page.ts";
import { buildOpenApi } from "./openapi.ts";
import { AI_PLUGIN_FILE } from "./routes/ai-plugin.ts";
import { DOCS_FILE } from "./routes/docs.ts";
import { FEED_FILE } from "./routes/feed.ts";
import { HOME_FILE } from "./routes/home.ts";
import { LOGO_FILE } from "./routes/logo.ts";
import { OPENAPI_FILE } from "./routes/openapi.ts";

const text = (path: string, body: string) => ({ path, body: Buffer.from(body, "utf8") });

export const renderDocuments: Artifact = async (context, write) => {
  const options = { baseUrl: context.baseUrl, contactEmail: context.contactEmail };
  const doc = buildOpenApi(context.routes, { ...options, examples: context.examples });
  await write(text(OPENAPI_FILE, `${JSON.stringify(doc, null, 1)}\n`));
  await write(text(DOCS_FILE, renderDocsPage(doc)));
  const projects = context.collections.find((c) => c.name === "projects")?.records ?? 0;
  await write(
    text(HOME_FILE, renderHomePage(doc, { runDate: context.runDate, projects, domains: DOMAINS.length })),
  );
  await write(text(AI_PLUGIN_FILE, `${JSON.stringify(buildAiPlugin(options), null, 1)}\n`));
  await write(text(LOGO_FILE, LOGO_SVG));
  const entries = await feedEntries(context.db);
  await write(text(FEED_FILE, renderFeed(entries, { baseUrl: context.baseUrl, runDate: context.runDate })));
};
