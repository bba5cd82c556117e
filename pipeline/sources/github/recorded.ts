// The `recorded` hook of GitHub (see pipeline/sources/recorded.ts): parses a recorded REST or GraphQL body of
// a given endpoint kind with the connector's schemas.
import { z } from "zod";
import { header } from "../../collect/http-decision.ts";
import { type RecordedResponse, type RecordedVerdict, UnknownKindError } from "../recorded.ts";
import {
  commitActivitySchema,
  computingSchema,
  contributorsSchema,
  countFromLink,
  issuesListSchema,
  lastPage,
  rateLimitRestSchema,
  restErrorSchema,
  restReleasesSchema,
  restRepoSchema,
  searchRepositoriesSchema,
} from "./rest-schemas.ts";
import {
  defaultBranchRefSchema,
  envelope,
  messageBodySchema,
  rateLimitSchema,
  releasesSchema,
  repositorySchema,
} from "./schemas.ts";

const pages = (response: RecordedResponse) => {
  const last = lastPage(header(response.headers, "link"));
  return last === undefined ? "" : `, last page ${last}`;
};

export function parseGithubRestRecorded(response: RecordedResponse): RecordedVerdict {
  const { kind, status, body } = response;
  if (kind.startsWith("error") || status >= 400) {
    const error = restErrorSchema.parse(body);
    return { detail: error.message };
  }
  switch (kind) {
    case "repo-get": {
      const repo = restRepoSchema.parse(body);
      return {
        detail: `${repo.full_name}, ${repo.stargazers_count} stars${repo.archived ? ", archived" : ""}`,
      };
    }
    case "contributors": {
      const list = contributorsSchema.parse(body);
      const link = header(response.headers, "link");
      const count = lastPage(link) === undefined ? "" : `, ${countFromLink(link, list.length)} pages`;
      return { detail: `${list.length} contributors on this page${count}` };
    }
    case "releases-list": {
      const list = restReleasesSchema.parse(body);
      return { detail: `${list.length} releases on this page${pages(response)}` };
    }
    case "issues-list": {
      const list = issuesListSchema.parse(body);
      const pulls = list.filter((i) => i.pull_request).length;
      return { detail: `${list.length - pulls} issues and ${pulls} pull requests${pages(response)}` };
    }
    case "stats-commit-activity": {
      if (status === 202 || status === 204) {
        if (body !== undefined) computingSchema.parse(body);
        return { detail: status === 202 ? "statistics still computing" : "no commits" };
      }
      const weeks = commitActivitySchema.parse(body);
      return { detail: `${weeks.length} weeks, ${weeks.reduce((n, w) => n + w.total, 0)} commits` };
    }
    case "search-repositories": {
      const found = searchRepositoriesSchema.parse(body);
      return { detail: `${found.items.length} of ${found.total_count} repositories${pages(response)}` };
    }
    case "rate-limit": {
      const limits = rateLimitRestSchema.parse(body);
      return { detail: `core ${limits.resources.core.remaining}/${limits.resources.core.limit} remaining` };
    }
    default:
      throw new UnknownKindError("github-rest", kind);
  }
}

const count = z.object({ totalCount: z.number().int().nonnegative() });
const anyData = envelope(z.record(z.string(), z.unknown()));
/** A `repository` root field asking for any subset of the fields the details query reads. */
const partialRepository = repositorySchema
  .partial()
  .extend({ defaultBranchRef: defaultBranchRefSchema.optional(), releases: releasesSchema.optional() });
const repositoryAnswer = envelope(z.object({ repository: partialRepository.nullable() }));
const searchCountsAnswer = envelope(
  z
    .object({ repository: z.record(z.string(), count).nullable() })
    .catchall(z.object({ issueCount: z.number().int().nonnegative() })),
);
const viewerAnswer = envelope(
  z.object({ viewer: z.object({ login: z.string() }), rateLimit: rateLimitSchema }),
);

/** NOT_FOUND errors inside a 200: the entity is gone, the rest of the answer stands. */
function notFound(errors: readonly { type?: string | undefined; message: string }[] | undefined) {
  return errors?.find((e) => e.type === "NOT_FOUND");
}

export function parseGithubGraphqlRecorded(response: RecordedResponse): RecordedVerdict {
  const { kind, status, body } = response;
  if (status !== 200) return { detail: messageBodySchema.parse(body).message };
  let answer: { data?: unknown; errors?: { type?: string | undefined; message: string }[] | undefined };
  let detail: string;
  switch (kind) {
    case "error":
      answer = anyData.parse(body);
      detail = `${answer.errors?.length ?? 0} errors`;
      break;
    case "repository": {
      const parsed = repositoryAnswer.parse(body);
      answer = parsed;
      detail = `repository ${Object.keys(parsed.data?.repository ?? {}).join(", ") || "null"}`;
      break;
    }
    case "search-issueCount+repository-issues-totalCount": {
      const parsed = searchCountsAnswer.parse(body);
      answer = parsed;
      detail = `${Object.keys(parsed.data ?? {}).length - 1} issue counts and repository totals`;
      break;
    }
    case "viewer+rateLimit-remaining": {
      const parsed = viewerAnswer.parse(body);
      answer = parsed;
      detail = `${parsed.data?.rateLimit.remaining} points remaining`;
      break;
    }
    default:
      throw new UnknownKindError("github-graphql", kind);
  }
  const gone = notFound(answer.errors);
  if (gone) return { detail: `skip the entity (NOT_FOUND: ${gone.message})`, decision: "skip" };
  if (answer.errors?.length && !answer.data)
    return { detail: answer.errors.map((e) => e.message).join("; ") };
  return { detail };
}
