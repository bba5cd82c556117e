// The files of a release beyond the collections: documents generated from the route table and the release
// (OpenAPI, AI plugin manifest, docs and index pages, Atom feed) and the analyst datasets (artifact-datasets.ts,
// rendered before the collections). Each renderer gets the same context and writes through the release writer.
import type { Db } from "../core/db.ts";
import type { Logger } from "../core/log.ts";
import { renderDocuments } from "./artifact-documents.ts";
import { renderOrientationFiles } from "./artifact-orientation.ts";
import type { PreviousDatasets } from "./dataset-carry.ts";
import type { ManifestFile } from "./layout.ts";
import { renderDomainPages } from "./pages-domain.ts";
import type { ReleaseFile } from "./release-writer.ts";
import type { CollectionSummary } from "./render-collection.ts";
import type { RouteSpec } from "./route-spec.ts";

/** What the release's renderers know before the collections are rendered. */
export interface ReleaseContext {
  db: Db;
  routes: readonly RouteSpec[];
  runDate: string;
  releaseId: string;
  createdAt: string;
  baseUrl: string;
  contactEmail: string;
  stateRoot: string;
  /** The live release's files, by path: what may be copied instead of read again. */
  previous: ReadonlyMap<string, ManifestFile>;
  /** The live release's dataset index: the history this folder lacks is taken from it. */
  previousDatasets: PreviousDatasets | undefined;
  logger: Logger;
}

export interface ArtifactContext extends ReleaseContext {
  /** What the collections rendered: counts and example keys for the documented requests. */
  collections: readonly CollectionSummary[];
  /** Per item route, parameters of a request that finds a record of this release (for documented examples). */
  examples: Readonly<Record<string, Record<string, string>>>;
}

export type Artifact = (
  context: ArtifactContext,
  write: (file: ReleaseFile) => Promise<void>,
) => Promise<void>;

/**
 * Run in order after the collections, the OpenAPI document before the pages built on it. The datasets come before the
 * collections (release.ts): their index is a document, and a night the release would lack is refused before any
 * collection is rendered.
 */
export const ARTIFACTS: readonly Artifact[] = [renderOrientationFiles, renderDocuments, renderDomainPages];

export async function renderArtifacts(
  context: ArtifactContext,
  write: (file: ReleaseFile) => Promise<void>,
): Promise<void> {
  for (const artifact of ARTIFACTS) await artifact(context, write);
}
