// `projintel sources verify DIR`: parse every recorded response in a folder laid out like
// test/fixtures/real/ (one folder per source; the endpoint kind is the file name before the first dot;
// `<stem>.headers.json` holds `{status, headers: [[name, value], …]}` of the body `<stem>.<ext>`) with the
// connectors' own schemas and the shared HTTP decision, one verdict per body.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { ZodError } from "zod";
import { classifyResponse, type Headers, header } from "./collect/http-decision.ts";
import type { ParseRecorded } from "./sources/recorded.ts";
import { RECORDED_PARSERS } from "./sources/recorded-registry.ts";

export type VerifyOutcome = "ok" | "decision" | "failed" | "no_parser";

export interface VerifyLine {
  source: string;
  file: string;
  outcome: VerifyOutcome;
  detail: string;
}

const HEADERS_SUFFIX = ".headers.json";

/** `foo.bar.json` → `foo.bar`; `foo.bar.xml` → `foo.bar`. */
const stemOf = (file: string) =>
  file.endsWith(HEADERS_SUFFIX) ? file.slice(0, -HEADERS_SUFFIX.length) : file.replace(/\.[^.]+$/, "");

/** A status named in the file name (`error-403-…`, `….202-accepted.…`, `error.401-…`), else 200. */
export function statusFromName(stem: string): number | undefined {
  const match = /(?:^|[._-])([1-5]\d\d)(?=[._-]|$)/.exec(stem);
  return match?.[1] ? Number(match[1]) : undefined;
}

const headersFileSchema = (value: unknown): { status: number; headers: Headers } => {
  const record = value as { status?: unknown; headers?: unknown };
  if (typeof record?.status !== "number" || !Array.isArray(record.headers))
    throw new Error("headers file lacks a numeric status or a headers list");
  const headers: Record<string, string | string[]> = {};
  for (const pair of record.headers as unknown[]) {
    if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string")
      throw new Error("headers file holds an entry that is not [name, value]");
    const [name, value] = pair as [string, string];
    const key = name.toLowerCase();
    const seen = headers[key];
    headers[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return { status: record.status, headers };
};

function describeFailure(error: unknown): string {
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(root)";
    return `schema: ${where}: ${issue?.message ?? "invalid"}${error.issues.length > 1 ? ` (+${error.issues.length - 1} more)` : ""}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const seconds = (ms: number | undefined) => (ms === undefined ? "" : ` in ${Math.round(ms / 1000)} s`);

async function verifyFile(
  dir: string,
  source: string,
  file: string,
  files: ReadonlySet<string>,
  parse: ParseRecorded,
): Promise<VerifyLine> {
  const stem = stemOf(file);
  const line = (outcome: VerifyOutcome, detail: string): VerifyLine => ({
    source,
    file,
    outcome,
    detail,
  });
  try {
    const kind = file.slice(0, file.indexOf("."));
    if (kind === "") return line("failed", "the file name has no endpoint kind before its first dot");
    const headersOnly = file.endsWith(HEADERS_SUFFIX);
    const text = headersOnly ? "" : await readFile(path.join(dir, file), "utf8");
    let body: unknown = text === "" ? undefined : text;
    if (file.endsWith(".json") && !headersOnly) {
      try {
        body = text.trim() === "" ? undefined : JSON.parse(text);
      } catch (error) {
        return line("failed", `not JSON: ${(error as Error).message}`);
      }
    }
    let status = statusFromName(stem) ?? 200;
    let headers: Headers = {};
    let statusNote = files.has(`${stem}${HEADERS_SUFFIX}`) ? "" : " (no headers file)";
    if (!statusNote) {
      const recorded = headersFileSchema(
        JSON.parse(await readFile(path.join(dir, `${stem}${HEADERS_SUFFIX}`), "utf8")),
      );
      status = recorded.status;
      headers = recorded.headers;
    } else if (statusFromName(stem) !== undefined) {
      statusNote = ` (status ${status} from the file name)`;
    }
    // Reset times and Retry-After dates are read against the moment the answer was recorded.
    const date = Date.parse(header(headers, "date") ?? "");
    const now = Number.isNaN(date) ? new Date() : new Date(date);
    const classification = classifyResponse(status, headers, body, now);
    const verdict = parse({ kind, file, status, headers, body, classification });
    const decision = verdict.decision ?? classification.decision;
    if (decision === "ok") return line("ok", `${status}: ${verdict.detail}${statusNote}`);
    if (verdict.decision && verdict.decision !== classification.decision)
      return line("decision", `${decision}: ${verdict.detail}${statusNote}`);
    const said = classification.reason.includes(verdict.detail) ? "" : ` (${verdict.detail})`;
    return line(
      "decision",
      `${decision}${seconds(classification.retryAfterMs)}: ${classification.reason}${said}${statusNote}`,
    );
  } catch (error) {
    return line("failed", describeFailure(error));
  }
}

/** Every body file of every source folder under `dir`, in name order, with its verdict. */
export async function verifyRecorded(
  dir: string,
  parsers: Readonly<Record<string, ParseRecorded>> = RECORDED_PARSERS,
): Promise<VerifyLine[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const sources = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lines: VerifyLine[] = [];
  for (const source of sources) {
    const folder = path.join(dir, source);
    const names = (await readdir(folder, { withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name);
    const files = new Set(names);
    const bodyStems = new Set(names.filter((n) => !n.endsWith(HEADERS_SUFFIX)).map(stemOf));
    // A recorded answer without a body (a redirect, a 204) is its headers file alone.
    const bodies = names
      .filter((n) => !n.startsWith("."))
      .filter((n) => !n.endsWith(HEADERS_SUFFIX) || !bodyStems.has(n.slice(0, -HEADERS_SUFFIX.length)))
      .sort();
    const parse = parsers[source];
    for (const file of bodies) {
      lines.push(
        parse
          ? await verifyFile(folder, source, file, files, parse)
          : { source, file, outcome: "no_parser", detail: `no parser yet for ${source}` },
      );
    }
  }
  return lines;
}

/** The lines that make verify fail: failures always, sources without a parser only when strict. */
export function failures(lines: readonly VerifyLine[], strict: boolean): VerifyLine[] {
  return lines.filter((l) => l.outcome === "failed" || (strict && l.outcome === "no_parser"));
}

const LABEL: Record<VerifyOutcome, string> = {
  ok: "ok",
  decision: "decision",
  failed: "FAILED",
  no_parser: "no parser",
};

export function formatLine(line: VerifyLine): string {
  return `${LABEL[line.outcome].padEnd(9)} ${line.source}/${line.file}  ${line.detail}`;
}
