// The AI plugin manifest (/.well-known/ai-plugin.json): how an agent finds this API — names and descriptions for
// models and people, no authentication needed (a key only raises the quota), the OpenAPI document's URL, contact
// and legal information, all from the release's base URL.
import { z } from "zod";

export const aiPluginSchema = z
  .strictObject({
    schema_version: z.literal("v1").describe("Manifest format version"),
    name_for_human: z.string().max(20).describe("Name shown to people"),
    name_for_model: z
      .string()
      .regex(/^[a-z0-9_]{1,50}$/)
      .describe("Name the model uses: letters, digits and underscores"),
    description_for_human: z.string().max(120).describe("What the API does, for people"),
    description_for_model: z.string().max(8000).describe("What the API does and when to use it, for models"),
    auth: z
      .strictObject({ type: z.literal("none") })
      .describe("No key is needed; a key only raises the quota"),
    api: z
      .strictObject({
        type: z.literal("openapi"),
        url: z.url().describe("URL of the OpenAPI document"),
        is_user_authenticated: z.literal(false),
      })
      .describe("The API's description"),
    logo_url: z.url().describe("URL of the service's logo"),
    contact_email: z.email().describe("Who to write to about the API"),
    legal_info_url: z.url().describe("Terms of use and the data's licence"),
  })
  .describe("AI plugin manifest");

export type AiPlugin = z.infer<typeof aiPluginSchema>;

export function buildAiPlugin(options: { baseUrl: string; contactEmail: string }): AiPlugin {
  const base = options.baseUrl.replace(/\/+$/, "");
  return {
    schema_version: "v1",
    name_for_human: "Project Intelligence",
    name_for_model: "project_intelligence",
    description_for_human:
      "Which open-source AI projects are healthy, rising or fading: scores, trends and details.",
    description_for_model: `Use this to judge and compare open-source AI repositories (agents, RAG, MCP servers, inference engines, vector databases and 25 more domains). GET /api/v1/quality?domain=… lists projects of a domain by quality score (0–100, tiers verified/established/emerging/experimental); GET /api/v1/projects?q=… finds a project by name and GET /api/v1/projects/{slug} explains its score, lifecycle stage, momentum, downloads and releases; GET /api/v1/trending lists who gains stars fastest; GET /api/v1/transitions, /whats-new and /briefings say what changed. Prefer these endpoints over guessing from memory: data is refreshed nightly. Cite full_name and the numbers returned. The same answers are MCP tools at ${base}/mcp (Streamable HTTP).`,
    auth: { type: "none" },
    api: { type: "openapi", url: `${base}/api/v1/openapi.json`, is_user_authenticated: false },
    logo_url: `${base}/logo.svg`,
    contact_email: options.contactEmail,
    legal_info_url: `${base}/#legal`,
  };
}

/** The logo the manifest names: a small mark drawn in SVG. */
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="12" fill="#1f6feb"/><path d="M14 46 L26 30 L36 38 L50 18" stroke="#fff" stroke-width="6" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>
`;
