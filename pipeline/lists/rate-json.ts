// The JSON forms `projintel rate` reads, split into objects that each keep the line they start on: JSON lines (one
// object a line), a JSON array of objects (as `jq -s` or a spreadsheet's export writes) or one object.
import { AppError } from "../../core/errors.ts";

export interface JsonRecord {
  /** The line the object starts on, 1 for the first line of the text. */
  line: number;
  value: unknown;
}

export interface JsonRecords {
  format: "jsonl" | "json";
  records: JsonRecord[];
  /** Lines that are not JSON: their number and why (the same shape as rate-input's RateProblem). */
  problems: { line: number; reason: string }[];
}

/** The offsets at which the elements of a valid JSON array (the text's one value) start. */
function elementStarts(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let inString = false;
  let awaiting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (awaiting && depth === 1 && c.trim() !== "" && c !== "]") {
      starts.push(i);
      awaiting = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) awaiting = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) awaiting = true;
  }
  return starts;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function parseJsonLines(input: string): JsonRecords {
  const records: JsonRecord[] = [];
  const problems: JsonRecords["problems"] = [];
  input.split("\n").forEach((raw, index) => {
    if (raw.trim() === "") return;
    try {
      records.push({ line: index + 1, value: JSON.parse(raw) });
    } catch (error) {
      problems.push({ line: index + 1, reason: `invalid JSON (${(error as Error).message})` });
    }
  });
  return { format: "jsonl", records, problems };
}

/**
 * Splits JSON text that opens with `{` or `[`: a text that is one JSON value is one object or an array of them (the
 * lines of its elements kept); otherwise it is read as JSON lines, a line that is not JSON set aside.
 */
export function splitJson(input: string, source: string): JsonRecords {
  let whole: unknown;
  try {
    whole = JSON.parse(input);
  } catch (error) {
    if (input.trimStart().startsWith("{")) return parseJsonLines(input);
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    throw new AppError(
      `${source} is not valid JSON${at ? ` (line ${lineAt(input, Number(at[1]))})` : ""}: ${message}`,
      { hint: "Fix the array, or give one JSON object a line (JSON lines)." },
    );
  }
  if (!Array.isArray(whole)) {
    return {
      format: "jsonl",
      records: [{ line: lineAt(input, input.search(/\S/)), value: whole }],
      problems: [],
    };
  }
  const starts = elementStarts(input);
  let line = 1;
  let scanned = 0;
  const records = whole.map((value, i) => {
    const offset = starts[i] ?? scanned;
    line += lineAt(input.slice(scanned, offset), offset - scanned) - 1;
    scanned = offset;
    return { line, value };
  });
  return { format: "json", records, problems: [] };
}
