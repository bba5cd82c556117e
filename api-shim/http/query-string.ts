// The query string as the routes read it: name → value (an array when a name repeats), "+" as a space, each part
// percent-decoded as UTF-8. A part that is not valid UTF-8 once decoded (`q=%FF`) is kept raw and its name listed
// under BADLY_ENCODED, so the route refuses it with 422 naming the parameter; Fastify's own parser kept it raw and
// silently searched for the text "%FF".
import { BADLY_ENCODED } from "../../schemas/index.ts";

export type Parsed = Record<string, string | string[]> & { [BADLY_ENCODED]?: string[] };

function decode(text: string): string | undefined {
  const spaced = text.includes("+") ? text.replace(/\+/g, " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

export function parseQueryString(query: string): Parsed {
  const parsed: Parsed = Object.create(null);
  for (const part of query.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? "" : part.slice(eq + 1);
    const name = decode(rawName);
    const value = decode(rawValue);
    const key = name ?? rawName;
    if (name === undefined || value === undefined) {
      parsed[BADLY_ENCODED] ??= [];
      parsed[BADLY_ENCODED].push(key);
    }
    const known = parsed[key];
    const text = value ?? rawValue;
    if (known === undefined) parsed[key] = text;
    else if (Array.isArray(known)) known.push(text);
    else parsed[key] = [known, text];
  }
  return parsed;
}
