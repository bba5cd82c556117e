// The `recorded` hook of Docker Hub (see ../recorded.ts): parses a recorded repository answer.
import { type RecordedResponse, type RecordedVerdict, UnknownKindError } from "../recorded.ts";
import { dockerRepositorySchema } from "./schemas.ts";

export function parseDockerhubRecorded(response: RecordedResponse): RecordedVerdict {
  if (response.kind !== "repository-get") throw new UnknownKindError("dockerhub", response.kind);
  if (response.status !== 200) return { detail: `status ${response.status}` };
  const image = dockerRepositorySchema.parse(response.body);
  return { detail: `${image.namespace}/${image.name}: ${image.pull_count} pulls, ${image.star_count} stars` };
}
