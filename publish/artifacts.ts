// The files of a release beyond the collections: documents generated from the route table and the release
// (OpenAPI, AI plugin manifest, docs and index pages, Atom feed) and the analyst datasets. Each renderer gets the
// same context and writes through the release writer.
import type { Db } from "../core/db.ts";
import type { Logger } from "../core/log.ts";
import { renderDatasetFiles } from "./artifact-datasets.ts";
import { renderDocuments } from "./artifact-documents.ts";
import { renderOrientationFiles } from "./artifact-orientation.ts";
import type { PreviousDatasets } from "./dataset-carry.ts";
import type { ManifestFile } from "./layout.ts";
import { renderDomainPages } from "./pages-domain.ts";
import type { ReleaseFile } from "./release-writer.ts";
import type { CollectionSummary } from "./render-collection.ts";
import type { RouteSpec } from "./route-spec.ts";

export interface ArtifactContext {
  db: Db;
  routes: readonly RouteSpec[];
  /** What the collections rendered: counts and example keys for the documented requests. */
  collections: readonly CollectionSummary[];
  runDate: string;
  releaseId: string;
  createdAt: string;
  baseUrl: string;
  contactEmail: string;
  stateRoot: string;
  /** Per item route, parameters of a request that finds a record of this release (for documented examples). */
  examples: Readonly<Record<string, Record<string, string>>>;
  /** The live release's files, by path: what may be copied instead of read again. */
  previous: ReadonlyMap<string, ManifestFile>;
  /** The live release's dataset index: the history this folder lacks is taken from it. */
  previousDatasets: PreviousDatasets | undefined;
  logger: Logger;
}

export type Artifact = (
  context: ArtifactContext,
  write: (file: ReleaseFile) => Promise<void>,
) => Promise<void>;

/** Run in order: the datasets first (their index is a document), the OpenAPI document before the pages built on it. */
export const ARTIFACTS: readonly Artifact[] = [
  renderDatasetFiles,
  renderOrientationFiles,
  renderDocuments,
  renderDomainPages,
];

export async function renderArtifacts(
  context: ArtifactContext,
  write: (file: ReleaseFile) => Promise<void>,
): Promise<void> {
  for (const artifact of ARTIFACTS) await artifact(context, write);
}
