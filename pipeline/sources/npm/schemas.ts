// zod schemas of the npm registry (full packument, /<name>) and the downloads API (point and range): only
// what raw_npm_packages and raw_npm_downloads need, tolerant of the many fields npm added or dropped.
import { z } from "zod";

/** `repository` is an object ({type, url, directory}) or, in older or hand-written manifests, a string. */
export const repositorySchema = z.union([
  z.string(),
  z.object({ type: z.string().optional(), url: z.string().optional(), directory: z.string().optional() }),
]);

export const versionSchema = z.object({
  version: z.string(),
  dependencies: z.record(z.string(), z.string()).nullable().optional(),
  // A deprecation message; some old publishes wrote `true` or "" (meaning not deprecated).
  deprecated: z.union([z.string(), z.boolean()]).nullable().optional(),
  repository: repositorySchema.nullable().optional(),
});

export const packumentSchema = z.object({
  name: z.string(),
  description: z.string().nullable().optional(),
  "dist-tags": z.record(z.string(), z.string()).optional(),
  versions: z.record(z.string(), versionSchema).optional(),
  // "created", "modified" and one entry per version; an unpublished package also has "unpublished" (an object).
  time: z.record(z.string(), z.unknown()).optional(),
  repository: repositorySchema.nullable().optional(),
  homepage: z.string().nullable().optional(),
});

export const pointSchema = z.object({
  downloads: z.number().int().nonnegative(),
  start: z.string(),
  end: z.string(),
  package: z.string(),
});

/** The bulk form (several names, comma-separated): name → point, or null for an unknown package. */
export const bulkPointSchema = z.record(z.string(), pointSchema.nullable());

export const rangeSchema = z.object({
  start: z.string(),
  end: z.string(),
  package: z.string(),
  downloads: z.array(z.object({ downloads: z.number().int().nonnegative(), day: z.string() })),
});

/** The bulk form of a range: name → daily series, or null for an unknown package. */
export const bulkRangeSchema = z.record(z.string(), rangeSchema.nullable());

export type NpmRepository = z.infer<typeof repositorySchema>;
export type Packument = z.infer<typeof packumentSchema>;
export type Point = z.infer<typeof pointSchema>;
export type Range = z.infer<typeof rangeSchema>;
