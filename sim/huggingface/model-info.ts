// Hugging Face model bodies for models published from simulated repositories: the list item of
// GET /api/models?author= and the model info of GET /api/models/{id}, in the recorded shapes; the model
// card (README.md) cites the GitHub repository and the arXiv paper (also tagged `arxiv:<id>`).
import { formatInstant } from "../dates.ts";
import { linksOf } from "../links.ts";
import * as m from "../metrics.ts";
import { between, hexDigest, SALT, unit } from "../random.ts";
import { descriptionOf, licenseOf } from "../repo-text.ts";
import { starCurve } from "../trajectory.ts";
import type { World } from "../world.ts";

const PIPELINES = [
  "text-generation",
  "feature-extraction",
  "text-to-image",
  "automatic-speech-recognition",
  "image-classification",
];

export function modelCreated(world: World, i: number, k: number): number {
  return (
    (world.params.created[i] as number) + (k + 1) * between(unit(world.seed, i, SALT.hf, 10 + k), 10, 90)
  );
}

/** Downloads over the last 30 days (what the Hub reports as `downloads`). */
function downloads30(world: World, i: number, k: number, now: number): number {
  const p = world.params;
  const t = now - (p.created[i] as number);
  const share = k === 0 ? 1 : 0.3;
  return Math.round(
    (p.downloadsPerStar[i] as number) *
      30 *
      starCurve(p, i, t) *
      share *
      between(unit(world.seed, i, SALT.hf, 20 + k), 0.5, 4),
  );
}

function stampMs(instant: number): string {
  return formatInstant(instant).replace("Z", ".000Z");
}

export function modelListItem(world: World, i: number, k: number, now: number) {
  const id = linksOf(world).modelIds(i)[k] as string;
  const pipeline = PIPELINES[(world.params.domain[i] as number) % PIPELINES.length] as string;
  const arxiv = linksOf(world).arxivId(i);
  const license = licenseOf(world, i)?.key ?? "other";
  return {
    _id: hexDigest(world.seed, i, 80_000 + k, 24),
    id,
    likes: Math.floor(m.starsBase(world, i, now) * 0.04 * (k === 0 ? 1 : 0.2)),
    private: false,
    downloads: downloads30(world, i, k, now),
    tags: [
      "transformers",
      "safetensors",
      pipeline,
      ...(arxiv ? [`arxiv:${arxiv}`] : []),
      `license:${license}`,
      "endpoints_compatible",
      "region:us",
    ],
    pipeline_tag: pipeline,
    library_name: "transformers",
    createdAt: stampMs(modelCreated(world, i, k)),
    modelId: id,
  };
}

export function modelInfo(world: World, i: number, k: number, now: number) {
  const item = modelListItem(world, i, k, now);
  const created = modelCreated(world, i, k);
  const updated = Math.max(
    created,
    Math.min(now, created + (now - created) * unit(world.seed, i, SALT.hf, 30 + k)),
  );
  return {
    _id: item._id,
    id: item.id,
    private: false,
    pipeline_tag: item.pipeline_tag,
    library_name: item.library_name,
    tags: item.tags,
    downloads: item.downloads,
    likes: item.likes,
    modelId: item.id,
    author: item.id.split("/")[0],
    sha: hexDigest(world.seed, i, 90_000 + k, 40),
    lastModified: stampMs(updated),
    gated: false,
    disabled: false,
    config: { architectures: ["AutoModel"], model_type: "custom" },
    cardData: {
      license: licenseOf(world, i)?.key ?? "other",
      tags: [item.pipeline_tag],
      library_name: "transformers",
    },
    siblings: [
      { rfilename: ".gitattributes" },
      { rfilename: "README.md" },
      { rfilename: "config.json" },
      { rfilename: "model.safetensors" },
    ],
    spaces: [],
    createdAt: item.createdAt,
    usedStorage: 10_000_000 + Math.floor(unit(world.seed, i, SALT.hf, 40 + k) * 9e9),
  };
}

/** The model card: YAML front matter, then prose linking the repository and the paper. */
export function modelCard(world: World, i: number, k: number): string {
  const arxiv = linksOf(world).arxivId(i);
  const license = licenseOf(world, i)?.key ?? "other";
  const lines = [
    "---",
    `license: ${license}`,
    "library_name: transformers",
    "---",
    "",
    `# ${linksOf(world).modelIds(i)[k]}`,
    "",
  ];
  lines.push(descriptionOf(world, i) ?? "", "", `Code: https://github.com/${world.fullName(i)}`);
  if (arxiv) lines.push(`Paper: https://arxiv.org/abs/${arxiv}`);
  return `${lines.join("\n")}\n`;
}
