// One /api/v1/quality response from a domain's records file and slice index: the shim answers every
// request with this and publish renders the canonical pages with it, so both produce the same bytes.
import type { z } from "zod";
import { QUALITY_TIER_RANGES, type qualityParams } from "../schemas/index.ts";
import { type ListBody, nextOffset, prepareListBody } from "./envelope.ts";
import { recordParts, type SliceIndex, selectSlice } from "./slice-index.ts";

export type QualityParams = z.output<typeof qualityParams>;

/** A domain's published quality data: the records file's bytes and its decoded index. */
export interface QualityDomainData {
  records: Buffer;
  index: SliceIndex;
}

export interface QualityPage {
  body: ListBody;
  total: number;
  nextOffset: number | null;
}

/**
 * The page answering `params` (validated by schemas' parseParams; meta.query echoes them, as `queryJson`
 * when the caller has them serialised already), ready for a timestamp. A tier is a score range and
 * min_score narrows it, so every filter but subcategory is a score bound.
 */
export function prepareQualityPage(
  data: QualityDomainData,
  params: QualityParams,
  queryJson: string = JSON.stringify(params),
): QualityPage {
  const range = params.quality_tier ? QUALITY_TIER_RANGES[params.quality_tier] : { min: 0, max: 100 };
  const slice = selectSlice(data.index, {
    subcategory: params.subcategory,
    minScore: Math.max(range.min, params.min_score ?? 0),
    maxScore: range.max,
    limit: params.limit,
    offset: params.offset,
  });
  const count = slice.ordinals.length;
  const next = nextOffset(params.offset, count, slice.total);
  const parts = recordParts(data.records, data.index, slice.ordinals);
  const body = prepareListBody(parts, { count, total: slice.total, next_offset: next }, queryJson);
  return { body, total: slice.total, nextOffset: next };
}
