// The GitHub topics searched when config github.topics is empty: the core topics of each of the 30 domains
// of SPEC.md and their most used sub-area topics, drawn from data/taxonomy.json. Kept short on purpose:
// every topic costs a search sweep a night. A repository with none of them (or no topic) is found only by
// a keyword (config github.keywords: phrases searched in names and descriptions) or as a seed.
import type { Domain } from "../../../schemas/enums.ts";

/** One discovery search: a topic (`topic:<t>`) or a keyword phrase (`"<k>" in:name,description`). */
export interface SearchTerm {
  kind: "topic" | "keyword";
  value: string;
}

export const DEFAULT_TOPICS_BY_DOMAIN: Readonly<Record<Domain, readonly string[]>> = {
  mcp: ["mcp", "model-context-protocol", "mcp-server"],
  agents: ["ai-agents", "agents", "multi-agent", "agentic-ai"],
  rag: ["rag", "retrieval-augmented-generation", "graphrag"],
  "ai-coding": ["ai-coding", "coding-assistant", "code-generation", "coding-agent"],
  "voice-ai": ["speech-recognition", "text-to-speech", "speech-to-text", "tts", "asr"],
  diffusion: ["stable-diffusion", "diffusion-models", "diffusion", "text-to-image"],
  "vector-db": ["vector-database", "vector-search", "similarity-search"],
  embeddings: ["embeddings", "text-embeddings", "sentence-embeddings", "embedding-models"],
  "prompt-engineering": ["prompt-engineering", "prompts"],
  "ml-frameworks": [
    "machine-learning",
    "deep-learning",
    "neural-network",
    "pytorch",
    "reinforcement-learning",
  ],
  "llm-tools": ["llm", "llms", "chatgpt", "openai"],
  nlp: ["nlp", "natural-language-processing"],
  transformers: ["transformers", "transformer", "large-language-models", "language-model"],
  "generative-ai": ["generative-ai", "genai", "gan", "super-resolution", "image-restoration"],
  "computer-vision": ["computer-vision", "object-detection", "image-segmentation"],
  "data-engineering": ["data-engineering", "datasets", "data-pipeline", "data-labeling"],
  mlops: ["mlops", "llmops", "experiment-tracking"],
  perception: ["autonomous-driving", "lidar", "point-cloud", "slam"],
  "llm-inference": [
    "llm-inference",
    "llm-serving",
    "inference",
    "inference-engine",
    "local-llm",
    "quantization",
  ],
  "ai-evals": ["llm-evaluation", "evaluation", "evals", "benchmark"],
  "fine-tuning": ["fine-tuning", "lora", "qlora", "peft", "rlhf", "dpo", "instruction-tuning"],
  "document-ai": ["document-ai", "ocr", "document-parsing", "pdf-parser"],
  "ai-safety": ["ai-safety", "guardrails", "llm-security", "prompt-injection"],
  "recommendation-systems": ["recommender-system", "recommendation-system", "recommendation"],
  "audio-ai": ["audio", "music-generation", "audio-processing"],
  "synthetic-data": ["synthetic-data", "synthetic-data-generation", "data-generation"],
  "time-series": ["time-series", "forecasting", "time-series-forecasting", "anomaly-detection"],
  multimodal: ["multimodal", "vision-language-model", "vlm"],
  "3d-ai": ["3d", "nerf", "gaussian-splatting", "3d-reconstruction"],
  "scientific-ml": ["scientific-machine-learning", "protein-structure-prediction", "bioinformatics"],
};

/** Every default topic once, in domain order. */
export const DEFAULT_TOPICS: readonly string[] = [...new Set(Object.values(DEFAULT_TOPICS_BY_DOMAIN).flat())];

/** The topics to search: the configured ones, or the defaults. */
export function searchTopics(configured: readonly string[]): readonly string[] {
  return configured.length > 0 ? [...new Set(configured.map((t) => t.trim().toLowerCase()))] : DEFAULT_TOPICS;
}

/**
 * The keywords to search, as GitHub reads them: lower-case words (letters and digits; anything else
 * separates words, as in GitHub's own tokenizer) joined by single spaces, de-duplicated, empty ones dropped.
 */
export function searchKeywords(configured: readonly string[]): readonly string[] {
  const words = configured.map((k) => (k.toLowerCase().match(/[a-z0-9]+/g) ?? []).join(" "));
  return [...new Set(words.filter(Boolean))];
}

/** Every discovery search of a night: the topics first, then the keywords. */
export function searchTerms(github: {
  topics: readonly string[];
  keywords: readonly string[];
}): SearchTerm[] {
  return [
    ...searchTopics(github.topics).map((value) => ({ kind: "topic" as const, value })),
    ...searchKeywords(github.keywords).map((value) => ({ kind: "keyword" as const, value })),
  ];
}
