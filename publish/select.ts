// Picks the records answering a query from a collection partition's index: equality filters intersect ordinal
// lists, a rank range is two binary searches (ranks are monotone in canonical order), name search ranks exact
// matches, then prefixes, then substrings. Shared by the shim and publish's canonical pages.
import type { CollectionIndex } from "./collection-index.ts";
import type { RankRange } from "./route-spec.ts";

export interface Selection {
  /** [filter name, value] pairs; a value the partition never has matches nothing. */
  filters: readonly (readonly [string, string])[];
  range?: RankRange | undefined;
  /** Name search text, any case. */
  search?: string | undefined;
  limit: number;
  offset: number;
}

export interface Selected {
  /** Records matching, over all pages. */
  total: number;
  /** Ordinals of the page's records, in answer order. */
  ordinals: number[];
}

export function selectRecords(index: CollectionIndex, selection: Selection): Selected {
  let list: ArrayLike<number> | undefined;
  for (const [name, value] of selection.filters) {
    const values = index.filters.get(name)?.get(value);
    if (!values) return { total: 0, ordinals: [] };
    list = list === undefined ? values : intersect(list, values);
  }
  const length = list ? list.length : index.count;
  const at = list ? (p: number) => list[p] as number : (p: number) => p;
  let first = 0;
  let end = length;
  const { rank, rankOrder } = index;
  const range = selection.range;
  if (rank && range && (range.min !== undefined || range.max !== undefined)) {
    const min = range.min ?? Number.NEGATIVE_INFINITY;
    const max = range.max ?? Number.POSITIVE_INFINITY;
    const value = (p: number) => rank[at(p)] as number;
    if (rankOrder === "asc") {
      first = lowerBound(length, (p) => value(p) >= min);
      end = lowerBound(length, (p) => value(p) > max);
    } else {
      first = lowerBound(length, (p) => value(p) <= max);
      end = lowerBound(length, (p) => value(p) < min);
    }
    end = Math.max(first, end);
  }
  if (selection.search !== undefined) {
    const q = selection.search.toLowerCase();
    // a slug (owner--repo, the id used everywhere else) is searched as owner/repo: an owner never holds "--"
    const asName = !q.includes("/") && q.includes("--") ? q.replace("--", "/") : undefined;
    const byName = asName === undefined ? [] : searchRecords(index, asName, first, end, at);
    const matches = byName.length > 0 ? byName : searchRecords(index, q, first, end, at);
    return {
      total: matches.length,
      ordinals: matches.slice(selection.offset, selection.offset + selection.limit),
    };
  }
  const from = first + selection.offset;
  const to = Math.min(end, from + selection.limit);
  const ordinals: number[] = [];
  for (let p = from; p < to; p++) ordinals.push(at(p));
  return { total: end - first, ordinals };
}

/**
 * Ordinals whose search text matches `q`: exact matches first (the whole text, or its part after the last "/",
 * the repository name of owner/name), then prefixes of either, then substrings — each group in canonical order.
 */
function searchRecords(
  index: CollectionIndex,
  q: string,
  first: number,
  end: number,
  at: (p: number) => number,
): number[] {
  const texts = index.search;
  if (!texts || q === "") return [];
  const exact: number[] = [];
  const prefix: number[] = [];
  const substring: number[] = [];
  for (let p = first; p < end; p++) {
    const ordinal = at(p);
    const text = texts[ordinal] as string;
    const found = text.indexOf(q);
    if (found === -1) continue;
    const slash = text.lastIndexOf("/");
    const nameStart = slash + 1;
    if (text.length === q.length || (text.length - nameStart === q.length && text.startsWith(q, nameStart))) {
      exact.push(ordinal);
    } else if (found === 0 || found === nameStart || text.startsWith(q, nameStart)) {
      prefix.push(ordinal);
    } else {
      substring.push(ordinal);
    }
  }
  return exact.concat(prefix, substring);
}

/** The ascending ordinals in both ascending lists. */
function intersect(a: ArrayLike<number>, b: ArrayLike<number>): Uint32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return Uint32Array.from(out);
}

/** First position in [0, length) where the monotone predicate turns true; `length` when it never does. */
function lowerBound(length: number, test: (position: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const COMMA = Buffer.from(",", "utf8");

/**
 * The bytes of the given records joined by commas, as slices of the records file: ascending consecutive ordinals
 * share one slice (the file already holds the commas between them), so an unfiltered page is one zero-copy view.
 */
export function recordParts(records: Buffer, index: CollectionIndex, ordinals: readonly number[]): Buffer[] {
  const parts: Buffer[] = [];
  const { offsets, count } = index;
  let i = 0;
  while (i < ordinals.length) {
    const runStart = ordinals[i] as number;
    let runEnd = runStart;
    while (i + 1 < ordinals.length && ordinals[i + 1] === runEnd + 1) {
      runEnd++;
      i++;
    }
    const last = i === ordinals.length - 1;
    const end = offsets[runEnd + 1] as number;
    // A run followed by another record keeps its trailing "," — unless it ends the file, whose last byte is "]".
    if (last || runEnd + 1 === count) {
      parts.push(records.subarray(offsets[runStart] as number, end - 1));
      if (!last) parts.push(COMMA);
    } else {
      parts.push(records.subarray(offsets[runStart] as number, end));
    }
    i++;
  }
  return parts;
}

/** The bytes of one record. */
export function recordBytes(records: Buffer, index: CollectionIndex, ordinal: number): Buffer {
  return records.subarray(index.offsets[ordinal] as number, (index.offsets[ordinal + 1] as number) - 1);
}
