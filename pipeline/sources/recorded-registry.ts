// Fixture folder name → the source's recorded-response parser (the hook described in recorded.ts). One line
// per source; a folder without an entry is reported by `projintel sources verify` as "no parser yet".
import { parseArxivRecorded } from "./arxiv/recorded.ts";
import { parseDockerhubRecorded } from "./dockerhub/recorded.ts";
import { parseGithubGraphqlRecorded, parseGithubRestRecorded } from "./github/recorded.ts";
import { parseHuggingfaceRecorded } from "./huggingface/recorded.ts";
import { parseNpmRecorded } from "./npm/recorded.ts";
import { pypiProjectSchema } from "./pypi/schemas.ts";
import { recentSchema } from "./pypistats/index.ts";
import {
  type ParseRecorded,
  type RecordedResponse,
  type RecordedVerdict,
  UnknownKindError,
} from "./recorded.ts";

function parsePypiRecorded(response: RecordedResponse): RecordedVerdict {
  if (response.kind !== "project-json") throw new UnknownKindError("pypi", response.kind);
  if (response.status !== 200) return { detail: `status ${response.status}` };
  const project = pypiProjectSchema.parse(response.body);
  return {
    detail: `${project.info.name} ${project.info.version}, ${Object.keys(project.releases).length} releases`,
  };
}

function parsePypistatsRecorded(response: RecordedResponse): RecordedVerdict {
  if (response.kind !== "recent") throw new UnknownKindError("pypistats", response.kind);
  if (response.status !== 200) return { detail: `status ${response.status}` };
  const recent = recentSchema.parse(response.body);
  return { detail: `${recent.package}: ${recent.data.last_month} downloads last month` };
}

/** Fixture folder name → parser. Folders not listed here are reported as "no parser yet". */
export const RECORDED_PARSERS: Readonly<Record<string, ParseRecorded>> = {
  "github-rest": parseGithubRestRecorded,
  "github-graphql": parseGithubGraphqlRecorded,
  pypi: parsePypiRecorded,
  pypistats: parsePypistatsRecorded,
  npm: parseNpmRecorded,
  dockerhub: parseDockerhubRecorded,
  huggingface: parseHuggingfaceRecorded,
  arxiv: parseArxivRecorded,
};
