// Words the invented world is built from: the 30 AI domains of SPEC.md with their typical topics,
// description phrases and name parts, plus languages and licenses. No real project names appear here.

export interface DomainWords {
  slug: string;
  topics: readonly string[];
  phrases: readonly string[];
  nameParts: readonly string[];
  languages: LanguageProfile;
}

export type LanguageProfile = "py" | "ts" | "sys" | "nb";

const d = (
  slug: string,
  languages: LanguageProfile,
  topics: string,
  nameParts: string,
  phrases: readonly string[],
): DomainWords => ({ slug, languages, topics: topics.split(" "), nameParts: nameParts.split(" "), phrases });

export const DOMAINS: readonly DomainWords[] = [
  d("mcp", "ts", "mcp model-context-protocol mcp-server mcp-client mcp-tools", "mcp bridge relay", [
    "Model Context Protocol server exposing local files and tools to LLMs",
    "MCP gateway that routes tool calls between clients and servers",
    "SDK for building Model Context Protocol servers",
  ]),
  d(
    "agents",
    "py",
    "agents ai-agents autonomous-agents multi-agent agentic-ai agent-framework",
    "agent crew swarm",
    [
      "framework for building autonomous LLM agents that plan and call tools",
      "multi-agent orchestration with shared memory and role play",
      "browser agent that completes web tasks from natural language",
    ],
  ),
  d(
    "rag",
    "py",
    "rag retrieval-augmented-generation graphrag knowledge-base semantic-search reranking",
    "rag retrieve",
    [
      "retrieval-augmented generation pipeline with hybrid search",
      "chat with your documents using local LLMs and a RAG index",
      "graph-based retrieval-augmented generation over knowledge graphs",
    ],
  ),
  d(
    "ai-coding",
    "ts",
    "ai-coding coding-assistant code-generation code-completion coding-agent",
    "code pilot",
    [
      "AI coding assistant for the terminal and the editor",
      "code-generation agent that edits repositories from issues",
      "code completion engine powered by small code LLMs",
    ],
  ),
  d(
    "voice-ai",
    "py",
    "speech-recognition asr speech-to-text tts text-to-speech voice-cloning",
    "voice speak",
    [
      "real-time speech-to-text with streaming voice activity detection",
      "text-to-speech synthesis with few-shot voice cloning",
      "voice agent toolkit for low-latency conversations",
    ],
  ),
  d(
    "diffusion",
    "py",
    "diffusion stable-diffusion diffusion-models text-to-image image-generation",
    "diff paint",
    [
      "diffusion model toolkit for text-to-image generation",
      "node-based editor for image diffusion workflows",
      "fast sampler and LoRA trainer for latent diffusion models",
    ],
  ),
  d(
    "vector-db",
    "sys",
    "vector-database vector-search similarity-search nearest-neighbor-search hnsw",
    "vec index",
    [
      "vector database for similarity search at scale",
      "approximate nearest neighbour index with HNSW and quantization",
      "embedded vector store for edge devices",
    ],
  ),
  d(
    "embeddings",
    "py",
    "embeddings text-embeddings sentence-embeddings embedding-models semantic-similarity",
    "embed",
    [
      "multilingual text embedding models and training recipes",
      "embedding server with batching and a REST API",
      "benchmark suite for sentence embeddings",
    ],
  ),
  d("prompt-engineering", "py", "prompt-engineering prompts prompt-optimization prompt-templates", "prompt", [
    "prompt optimisation library that compiles declarative prompts",
    "curated collection of system prompts and prompt patterns",
    "prompt template manager with versioning",
  ]),
  d(
    "ml-frameworks",
    "py",
    "machine-learning deep-learning neural-network autograd reinforcement-learning",
    "tensor grad",
    [
      "minimal deep learning framework with autograd",
      "gradient boosting library for tabular machine learning",
      "reinforcement learning environments and baselines",
    ],
  ),
  d("llm-tools", "ts", "llm llms llm-gateway ai-gateway chat-ui tokenizer", "chat gate", [
    "unified LLM gateway with routing, caching and cost tracking",
    "self-hosted chat UI for many model providers",
    "structured-output helpers for LLM APIs",
  ]),
  d("nlp", "py", "nlp natural-language-processing named-entity-recognition text-classification", "lex text", [
    "industrial NLP pipeline for tagging, parsing and entity recognition",
    "text classification toolkit with pretrained models",
    "machine translation models for low-resource languages",
  ]),
  d(
    "transformers",
    "py",
    "transformers transformer language-model large-language-models attention",
    "former gpt",
    [
      "transformer language models implemented from scratch",
      "pretraining codebase for open-weight language models",
      "efficient attention kernels for transformer training",
    ],
  ),
  d("generative-ai", "py", "generative-ai genai gan super-resolution image-restoration", "gen", [
    "generative adversarial networks for image synthesis",
    "image restoration and super-resolution with generative models",
    "collection of generative AI apps and demos",
  ]),
  d(
    "computer-vision",
    "py",
    "computer-vision object-detection image-segmentation pose-estimation",
    "vision",
    [
      "real-time object detection and tracking",
      "image segmentation models with a simple training API",
      "pose estimation toolkit for video",
    ],
  ),
  d(
    "data-engineering",
    "py",
    "data-engineering datasets data-pipeline web-scraping data-labeling data-quality",
    "data crawl",
    [
      "web crawler that turns websites into LLM-ready markdown",
      "data labeling platform for text and images",
      "dataset curation and deduplication pipelines",
    ],
  ),
  d("mlops", "py", "mlops llmops experiment-tracking model-registry observability", "ops track", [
    "experiment tracking and model registry for ML teams",
    "LLM observability with tracing and evaluations",
    "workflow orchestration for machine learning pipelines",
  ]),
  d("perception", "sys", "autonomous-driving lidar point-cloud slam sensor-fusion robotics", "drive slam", [
    "3D object detection on lidar point clouds",
    "visual SLAM and odometry for robots",
    "sensor fusion stack for autonomous driving research",
  ]),
  d(
    "llm-inference",
    "sys",
    "llm-inference inference llm-serving inference-engine quantization local-llm",
    "serve infer",
    [
      "high-throughput LLM inference engine with paged KV cache",
      "run quantized language models locally on CPU and GPU",
      "OpenAI-compatible server for local LLMs",
    ],
  ),
  d("ai-evals", "py", "evaluation evals llm-evaluation benchmark leaderboard llm-as-a-judge", "eval bench", [
    "evaluation harness for large language models",
    "LLM-as-a-judge framework with reproducible metrics",
    "benchmark and leaderboard for RAG systems",
  ]),
  d("fine-tuning", "py", "fine-tuning lora qlora peft rlhf dpo instruction-tuning", "tune", [
    "memory-efficient LoRA fine-tuning for open LLMs",
    "preference optimisation recipes (DPO, RLHF) for chat models",
    "instruction-tuning framework with one config file",
  ]),
  d(
    "document-ai",
    "py",
    "ocr pdf-parser document-parsing layout-analysis table-extraction document-ai",
    "doc ocr",
    [
      "PDF to markdown conversion with layout analysis",
      "OCR engine for scanned documents and tables",
      "document understanding models for invoices and forms",
    ],
  ),
  d(
    "ai-safety",
    "py",
    "ai-safety guardrails llm-security prompt-injection red-teaming interpretability",
    "guard",
    [
      "guardrails that filter unsafe LLM inputs and outputs",
      "prompt-injection scanner and red-teaming toolkit",
      "interpretability tools for neural network internals",
    ],
  ),
  d(
    "recommendation-systems",
    "py",
    "recommender-system recommendation collaborative-filtering ctr-prediction",
    "rec",
    [
      "deep learning recommender models for CTR prediction",
      "collaborative filtering library with fast training",
      "sequential recommendation benchmarks",
    ],
  ),
  d(
    "audio-ai",
    "py",
    "audio music-generation source-separation audio-processing audio-classification",
    "audio sound",
    [
      "music generation with neural audio codecs",
      "source separation for vocals and instruments",
      "audio tagging and feature extraction library",
    ],
  ),
  d(
    "synthetic-data",
    "py",
    "synthetic-data synthetic-data-generation data-generation tabular-data",
    "synth",
    [
      "synthetic tabular data generation with privacy guarantees",
      "LLM-driven synthetic dataset generator for fine-tuning",
      "simulation-based synthetic data for vision models",
    ],
  ),
  d("time-series", "py", "time-series forecasting time-series-forecasting anomaly-detection", "cast", [
    "time series forecasting with foundation models",
    "anomaly detection for metrics and sensor streams",
    "probabilistic forecasting library",
  ]),
  d("multimodal", "py", "multimodal vision-language-model vlm vision-language", "vl", [
    "open vision-language model for image understanding",
    "multimodal chat assistant that reads images and charts",
    "training code for vision-language alignment",
  ]),
  d("3d-ai", "py", "3d nerf gaussian-splatting 3d-reconstruction", "splat mesh", [
    "Gaussian splatting renderer and trainer",
    "neural radiance fields for 3D reconstruction",
    "text-to-3D mesh generation",
  ]),
  d(
    "scientific-ml",
    "py",
    "scientific-machine-learning protein-structure-prediction molecular-dynamics physics-informed",
    "sci mol",
    [
      "protein structure prediction with deep learning",
      "physics-informed neural networks for PDEs",
      "machine-learned potentials for molecular dynamics",
    ],
  ),
];

export const GENERIC_TOPICS: readonly string[] =
  "llm ai machine-learning deep-learning python pytorch artificial-intelligence generative-ai open-source cli api self-hosted gpu research".split(
    " ",
  );

export const LANGUAGES: readonly string[] = [
  "Python",
  "TypeScript",
  "JavaScript",
  "Rust",
  "Go",
  "C++",
  "Jupyter Notebook",
  "Java",
  "C",
  "Cuda",
  "Julia",
];

/** Weights over LANGUAGES for each profile. */
export const LANGUAGE_WEIGHTS: Record<LanguageProfile, readonly number[]> = {
  py: [70, 4, 2, 4, 2, 5, 8, 1, 1, 2, 1],
  ts: [25, 50, 12, 4, 5, 1, 1, 1, 0, 0, 1],
  sys: [30, 3, 1, 25, 15, 18, 1, 2, 3, 2, 0],
  nb: [40, 1, 1, 1, 1, 1, 55, 0, 0, 0, 0],
};

export interface LicenseInfo {
  key: string;
  name: string;
  spdxId: string;
}

export const LICENSES: readonly LicenseInfo[] = [
  { key: "mit", name: "MIT License", spdxId: "MIT" },
  { key: "apache-2.0", name: "Apache License 2.0", spdxId: "Apache-2.0" },
  { key: "bsd-3-clause", name: 'BSD 3-Clause "New" or "Revised" License', spdxId: "BSD-3-Clause" },
  { key: "gpl-3.0", name: "GNU General Public License v3.0", spdxId: "GPL-3.0" },
  { key: "agpl-3.0", name: "GNU Affero General Public License v3.0", spdxId: "AGPL-3.0" },
  { key: "mpl-2.0", name: "Mozilla Public License 2.0", spdxId: "MPL-2.0" },
  { key: "other", name: "Other", spdxId: "NOASSERTION" },
];

/** Weights over LICENSES; the remainder up to 100 is "no license". */
export const LICENSE_WEIGHTS: readonly number[] = [36, 32, 6, 5, 3, 2, 4];
