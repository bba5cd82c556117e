// The API reference page (/docs), rendered from the OpenAPI document at publish time into one self-contained HTML
// file: no scripts, fonts or styles from elsewhere, so it works offline and behind any CDN. Each operation shows
// its parameters with their examples, a request to try, the fields of its records and its error statuses.
import type { JsonSchema } from "../schemas/index.ts";
import { escapeHtml, page } from "./html.ts";
import type { OpenApiDocument, Operation } from "./openapi.ts";

export function renderDocsPage(doc: OpenApiDocument): string {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const nav = doc.tags
    .map((tag) => {
      const items = operations
        .filter((o) => o.op.tags[0] === tag.name)
        .map(
          (o) => `<li><a href="#${o.op.operationId}"><code>${o.method} ${escapeHtml(o.path)}</code></a></li>`,
        )
        .join("");
      return `<li><a href="#tag-${tag.name}">${escapeHtml(tag.name)}</a><ul>${items}</ul></li>`;
    })
    .join("");
  const sections = doc.tags
    .map((tag) => {
      const ops = operations.filter((o) => o.op.tags[0] === tag.name);
      return `<section id="tag-${tag.name}"><h2>${escapeHtml(tag.name)}</h2>${
        tag.description ? `<p>${escapeHtml(tag.description)}</p>` : ""
      }${ops.map((o) => operationHtml(doc, o.method, o.path, o.op)).join("")}</section>`;
    })
    .join("");
  const info = doc.info as { title: string; version: string; description: string };
  const body = `<header><h1>${escapeHtml(info.title)} <small>API ${escapeHtml(info.version)}</small></h1>
<p>${escapeHtml(info.description)}</p>
<p>Base URL: <code>${escapeHtml(doc.servers[0]?.url ?? "")}</code> · <a href="/api/v1/openapi.json">OpenAPI document</a> · <a href="/">Home</a></p>
${errorsTable(doc)}</header>
<div class="layout"><nav><ul>${nav}</ul></nav><main>${sections}</main></div>`;
  return page(`${info.title} — API reference`, body);
}

function operationHtml(doc: OpenApiDocument, method: string, path: string, op: Operation): string {
  const params = op.parameters ?? [];
  const paramRows = params
    .map((p) => {
      const schema = p.schema as JsonSchema & { default?: unknown };
      return `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${escapeHtml(typeOf(schema))}</td><td>${
        p.required ? "yes" : "no"
      }</td><td>${schema.default === undefined ? "" : `<code>${escapeHtml(JSON.stringify(schema.default))}</code>`}</td><td><code>${escapeHtml(
        JSON.stringify(p.example),
      )}</code></td><td>${escapeHtml(p.description ?? "")}${rulesOf(schema)}</td></tr>`;
    })
    .join("");
  const example = op["x-example-request"];
  const ok = op.responses["200"] as { content?: Record<string, { schema?: JsonSchema }> } | undefined;
  const [contentType, media] = Object.entries(ok?.content ?? {})[0] ?? ["", undefined];
  const statuses = Object.keys(op.responses)
    .filter((s) => s !== "200")
    .join(", ");
  return `<article id="${op.operationId}"><h3><span class="method">${method}</span> <code>${escapeHtml(path)}</code></h3>
<p><strong>${escapeHtml(op.summary)}</strong></p><p>${escapeHtml(op.description)}</p>
${params.length > 0 ? `<table><thead><tr><th>parameter</th><th>in</th><th>type</th><th>required</th><th>default</th><th>example</th><th>meaning</th></tr></thead><tbody>${paramRows}</tbody></table>` : "<p>No parameters.</p>"}
${requestBodyHtml(doc, op)}
${example ? `<p>Try it: <a class="try" href="${escapeHtml(example)}"><code>${escapeHtml(example)}</code></a></p>` : ""}
<p>Response <code>200</code> (<code>${escapeHtml(contentType)}</code>)${fieldsHtml(doc, media?.schema)}</p>
<p>Other statuses: ${escapeHtml(statuses)}.</p></article>`;
}

function requestBodyHtml(doc: OpenApiDocument, op: Operation): string {
  const body = op.requestBody as
    | { required: boolean; content: Record<string, { schema: JsonSchema }> }
    | undefined;
  const schema = body?.content["application/json"]?.schema;
  if (!body || !schema) return "";
  return `<p>Request body (<code>application/json</code>${body.required ? "" : ", optional"})${fieldsTable(doc, schema)}</p>`;
}

/** The fields of the records a 200 carries: data's items (or data itself) for an envelope, else the schema. */
function fieldsHtml(doc: OpenApiDocument, schema: JsonSchema | undefined): string {
  if (!schema) return "";
  const data = schema.properties?.data as JsonSchema | undefined;
  const target = data ? ((data.items as JsonSchema | undefined) ?? data) : schema;
  const resolved = resolve(doc, target);
  if (!resolved.properties) return "";
  return `: ${data?.type === "array" ? "<code>data</code> is a list of records with" : "<code>data</code> has"} these fields${fieldsTable(doc, resolved)}`;
}

function fieldsTable(doc: OpenApiDocument, schema: JsonSchema): string {
  const resolved = resolve(doc, schema);
  const required = new Set(resolved.required ?? []);
  const rows = Object.entries(resolved.properties ?? {})
    .map(([name, field]) => {
      const f = resolve(doc, field as JsonSchema);
      return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeOf(f))}</td><td>${
        required.has(name) ? "yes" : "no"
      }</td><td>${escapeHtml(f.description ?? "")}${rulesOf(f)}</td></tr>`;
    })
    .join("");
  return `<table><thead><tr><th>field</th><th>type</th><th>always present</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace("#/components/schemas/", "");
  return doc.components.schemas[name] ?? schema;
}

function typeOf(schema: JsonSchema): string {
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1) ?? "object";
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return variants.map(typeOf).join(" or ");
  if (schema.type === "array")
    return `list of ${schema.items ? typeOf(schema.items as JsonSchema) : "values"}`;
  if (Array.isArray(schema.type)) return schema.type.join(" or ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  return `${schema.type ?? "any"}${schema.format ? ` (${schema.format})` : ""}`;
}

function rulesOf(schema: JsonSchema): string {
  const rules: string[] = [];
  if (Array.isArray(schema.enum)) rules.push(`one of ${schema.enum.map((v) => String(v)).join(", ")}`);
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    rules.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) rules.push(`at least ${schema.minimum}`);
  else if (schema.maximum !== undefined) rules.push(`at most ${schema.maximum}`);
  if (schema.maxLength !== undefined) rules.push(`at most ${schema.maxLength} characters`);
  return rules.length > 0 ? ` <span class="rules">(${escapeHtml(rules.join("; "))})</span>` : "";
}

function errorsTable(doc: OpenApiDocument): string {
  const rows = Object.entries(doc.components.responses)
    .filter(([name]) => name !== "NotModified")
    .map(([, response]) => {
      const r = response as {
        description: string;
        content: Record<string, { examples: Record<string, unknown> }>;
      };
      const codes = Object.keys(r.content["application/json"]?.examples ?? {});
      return `<tr><td>${codes.map((c) => `<code>${escapeHtml(c)}</code>`).join(", ")}</td><td>${escapeHtml(r.description)}</td></tr>`;
    })
    .join("");
  return `<details><summary>Errors, keys and quotas</summary><p>Every error is <code>{"detail":{"error":{"code","message"}}}</code>. Every response carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>. A key is optional: send <code>Authorization: Bearer pis_…</code> to use a key's larger quota.</p><table><thead><tr><th>codes</th><th>when</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}
