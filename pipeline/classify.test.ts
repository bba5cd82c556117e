// The classification rules (data/taxonomy.json + feat_classification.sql) on hand-made rows, one per kind of rule,
// on the labelled repositories (accuracy floors on the tuning part and the held-out part) and on the simulator's
// invented vocabulary (all 30 domains).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOMAINS } from "../schemas/enums.ts";
import { DOMAINS as SIM_DOMAINS } from "../sim/vocabulary.ts";
import { type ClassifyRow, classifyRepos, evaluateClassifications, parseClassifyInput } from "./classify.ts";
import { HOLDOUT_FILE, TUNING_FILE } from "./labelled-split.ts";

const row = (
  full_name: string,
  description: string | null,
  extra: Partial<ClassifyRow> = {},
): ClassifyRow => ({
  full_name,
  description,
  topics: [],
  ...extra,
});

describe("classifyRepos", () => {
  it("names what decided: a topic, a phrase, a package, a dependency, two words, or the fallback", async () => {
    const results = await classifyRepos([
      row("acme/things", "Stuff", { topics: ["mcp-server", "mcp"] }),
      row("acme/vecs", "A vector database in Rust"),
      row("acme/notes", "Notes for your assistant", { npm_package: "@modelcontextprotocol/server-notes" }),
      row("acme/helper", "A small helper", { dependencies: ["fastmcp", "httpx"] }),
      row("acme/app", "An app", { dependencies: ["langchain", "openai"] }),
      row("diffusion-lab/tool", "Utilities"),
      row("acme/nothing", "Utilities"),
      // two different words of one field decide together, where either alone would not
      row("acme/desk", "Stock and portfolio helpers"),
    ]);
    expect(results).toEqual([
      {
        full_name: "acme/things",
        domain: "mcp",
        subcategory: "mcp-servers",
        stack_layer: "interface",
        rule: "topic: mcp-server",
      },
      {
        full_name: "acme/vecs",
        domain: "vector-db",
        subcategory: "vector-databases",
        stack_layer: "data",
        rule: "phrase: vector database",
      },
      {
        full_name: "acme/notes",
        domain: "mcp",
        subcategory: "mcp-servers",
        stack_layer: "interface",
        rule: "package: @modelcontextprotocol/server-notes",
      },
      {
        full_name: "acme/helper",
        domain: "mcp",
        subcategory: null,
        stack_layer: "interface",
        rule: "dependency: fastmcp",
      },
      {
        full_name: "acme/app",
        domain: "agents",
        subcategory: null,
        stack_layer: "orchestration",
        rule: "dependency: langchain",
      },
      // the owner's name adds weight to a domain the repository speaks for, but never decides one alone
      {
        full_name: "diffusion-lab/tool",
        domain: "ml-frameworks",
        subcategory: null,
        stack_layer: "model",
        rule: "fallback: no domain signal",
      },
      {
        full_name: "acme/nothing",
        domain: "ml-frameworks",
        subcategory: null,
        stack_layer: "model",
        rule: "fallback: no domain signal",
      },
      {
        full_name: "acme/desk",
        domain: "time-series",
        subcategory: null,
        stack_layer: "model",
        rule: "signals: portfolio + stock",
      },
    ]);
  });

  it("matches whole words only, and lets generic words alone never make a project language-model tooling", async () => {
    const results = await classifyRepos([
      // "gis" inside ArcGIS, "medical" inside MedicalKit: a camelCase name gives phrases of two words or more only
      row("acme/ArcGISTools", "Utilities"),
      row("acme/MedicalKit", "Utilities"),
      row("acme/llm-cli", "A command line interface for LLMs"),
      row("acme/cli", "A command line interface and SDK"),
      row("acme/fast", "Fast, simple and lightweight"),
      row("acme/ggufer", "Fast and local inference of GGUF models"),
    ]);
    expect(results.map((r) => [r.full_name, r.domain, r.rule])).toEqual([
      ["acme/ArcGISTools", "ml-frameworks", "fallback: no domain signal"],
      ["acme/MedicalKit", "ml-frameworks", "fallback: no domain signal"],
      ["acme/llm-cli", "llm-tools", "phrase: llm cli"],
      ["acme/cli", "ml-frameworks", "fallback: no domain signal"],
      ["acme/fast", "ml-frameworks", "fallback: no domain signal"],
      ["acme/ggufer", "llm-inference", "phrase: gguf"],
    ]);
  });

  it("never lets a lone generic word decide a domain: a phrase of the field does, or two words of one field", async () => {
    const results = await classifyRepos([
      // data, repository, evaluate, graphics, detection, visual, code: words every field uses
      row("acme/apps", "A faster way to build and share data apps"),
      row("acme/lang", "Development repository for the language and its compiler"),
      row("acme/expr", "Define, optimize, and evaluate mathematical expressions on arrays"),
      row("acme/plots", "A grammar of graphics for Python"),
      row("acme/spam", "Spam detection made simple"),
      row("acme/look", "Visual tools for notebooks"),
      row("acme/port", "Convert code between frameworks"),
      // a phrase of the field decides alone, and the rule names it
      row("acme/runs", "Experiment tracking for your training runs"),
      row("acme/boxes", "Real-time object detection on the edge"),
      row("acme/why", "Counterfactual explanations for any classifier"),
      // pretraining and fine-tuning named together is training in general, not fine-tuning
      row("acme/trainer", "Pretrain, finetune and deploy any model on thousands of GPUs"),
    ]);
    expect(results.map((r) => [r.full_name, r.domain, r.rule])).toEqual([
      ["acme/apps", "ml-frameworks", "fallback: no domain signal"],
      ["acme/lang", "ml-frameworks", "fallback: no domain signal"],
      ["acme/expr", "ml-frameworks", "fallback: no domain signal"],
      ["acme/plots", "ml-frameworks", "fallback: no domain signal"],
      ["acme/spam", "ml-frameworks", "fallback: no domain signal"],
      ["acme/look", "ml-frameworks", "fallback: no domain signal"],
      ["acme/port", "ml-frameworks", "fallback: no domain signal"],
      ["acme/runs", "mlops", "phrase: experiment tracking"],
      ["acme/boxes", "computer-vision", "phrase: object detection"],
      ["acme/why", "ai-safety", "phrase: counterfactual explanation"],
      ["acme/trainer", "ml-frameworks", "fallback: no domain signal"],
    ]);
  });

  it("classifies a project that describes itself as an MCP server as mcp, whatever it serves", async () => {
    const servers = [
      "MCP server for web scraping and crawling",
      "A Model Context Protocol server that converts PDFs and Office documents to Markdown",
      "MCP server exposing your notes to AI agents for retrieval augmented generation",
      "Text-to-speech MCP server",
      "MCP server for time series forecasting",
      "MCP server for evaluating LLM outputs with LLM-as-a-judge",
      "Multi-agent orchestration MCP server",
      "Vector search MCP server backed by a vector database",
    ];
    // an application that uses MCP servers is not one
    const users = [
      ["Agent framework with MCP support", "agents"],
      ["AI coding assistant in your terminal; connect any MCP server", "ai-coding"],
      ["Build AI agents that can use MCP servers as tools", "agents"],
      ["LLM gateway with MCP server support, load balancing and cost tracking", "llm-tools"],
    ];
    const results = await classifyRepos([
      ...servers.map((d, i) => row(`acme/server-${i}`, d)),
      ...users.map(([d], i) => row(`acme/user-${i}`, d as string)),
      // a repository named like an MCP server's package (*-mcp, mcp-*, *-mcp-server) is one
      row("acme/notes-mcp", "Notes integration for Claude and Cursor"),
    ]);
    expect(results.map((r) => r.domain)).toEqual([
      ...servers.map(() => "mcp"),
      ...users.map(([, d]) => d),
      "mcp",
    ]);
    expect(results[0]?.rule).toBe("phrase: mcp server");
    expect(results.at(-1)?.rule).toBe("name: notes-mcp");
  });

  it("places the classic machine-learning fields by the general phrases of each field", async () => {
    const results = await classifyRepos([
      row("acme/geo", "Read, reproject and analyse geospatial vector data"),
      row("acme/quant", "Portfolio optimisation and technical indicators for stock market data"),
      row("acme/tune", "Distributed hyperparameter search with early stopping"),
      row("acme/runs", "An experiment tracker for your training runs"),
      row("acme/ppl", "Bayesian inference with MCMC and variational inference"),
      row("acme/graphs", "Graph representation learning on large networks"),
      row("acme/eeg", "Preprocessing and analysis of EEG recordings"),
    ]);
    expect(results.map((r) => [r.full_name, r.domain])).toEqual([
      ["acme/geo", "scientific-ml"],
      ["acme/quant", "time-series"],
      ["acme/tune", "mlops"],
      ["acme/runs", "mlops"],
      ["acme/ppl", "ml-frameworks"],
      ["acme/graphs", "ml-frameworks"],
      ["acme/eeg", "scientific-ml"],
    ]);
  });

  it("lets the most specific domain win, breaks exact ties by priority, discounts mentions", async () => {
    const results = await classifyRepos([
      // application over capability: a coding agent is ai-coding, not agents
      row("acme/coder", "An autonomous coding agent for your repository", { topics: ["agents"] }),
      // equal weight (tts vs vlm): the narrower domain listed first in priority wins
      row("acme/both", null, { topics: ["tts", "vlm"] }),
      // "for AI agents" is a mention, not what the repository is
      row("acme/crawl", "Search, scrape and clean the web for AI agents."),
      // modality over technique: diffusion that generates music is audio-ai
      row("acme/tunes", "Music generation with latent diffusion models"),
    ]);
    expect(results.map((r) => [r.domain, r.subcategory, r.stack_layer])).toEqual([
      ["ai-coding", "coding-agents", "orchestration"],
      ["voice-ai", "text-to-speech", "model"],
      ["data-engineering", "web-crawling", "data"],
      ["audio-ai", "music-generation", "model"],
    ]);
  });

  it("derives the stack layer from subcategory and the words of name and description", async () => {
    const results = await classifyRepos([
      row("acme/mcp-sdk", "The official Python SDK for Model Context Protocol servers and clients", {
        pypi_package: "mcp",
      }),
      row("acme/jira-mcp", "MCP server for Jira issues"),
      row("acme/sd-ui", "Stable Diffusion web UI"),
      row("acme/sd-cpp", "Diffusion model inference in pure C/C++"),
      row("acme/ann-bench", "Benchmarks of approximate nearest neighbor libraries"),
      row("acme/gw", "Proxy to call 100+ LLM API providers in one format"),
    ]);
    expect(results.map((r) => [r.domain, r.stack_layer])).toEqual([
      ["mcp", "orchestration"],
      ["mcp", "interface"],
      ["diffusion", "interface"],
      ["diffusion", "inference"],
      ["vector-db", "eval"],
      ["llm-tools", "infra"],
    ]);
  });

  it("reads what the description says a repository is over its topics and what it uses", async () => {
    const results = await classifyRepos([
      // a stray topic of another domain does not take over a technique's weight (transformers yields to time-series
      // only when the repository says it forecasts)
      row("acme/gpt", "Transformer language models implemented from scratch", {
        topics: ["transformers", "attention", "time-series-forecasting"],
      }),
      // one topic counts once for the subcategory, however many of its words are signals
      row("acme/pilot", "AI coding assistant for the terminal and the editor", {
        topics: ["ai-coding", "code-completion"],
      }),
      // the head of the description ("MCP gateway") picks the subcategory over its tail and a topic
      row("acme/relay", "MCP gateway that routes tool calls between clients and servers", {
        topics: ["mcp", "mcp-server"],
      }),
      // what an application uses ("using local LLMs") does not make it an inference engine
      row("acme/docs", "Chat with your documents using local LLMs and a RAG index", { topics: ["rag"] }),
      // "generative adversarial" is a GAN, not an adversarial-robustness evaluation
      row("acme/gan", "Generative adversarial networks for image synthesis", { topics: ["gan"] }),
      // a vector database "at scale" is still a data store; "optimisation" is spelled either way
      row("acme/vec", "Vector database for similarity search at scale"),
      row("acme/dsp", "Prompt optimisation library that compiles declarative prompts", {
        topics: ["prompt-engineering", "prompts"],
      }),
    ]);
    expect(results.map((r) => [r.domain, r.subcategory, r.stack_layer])).toEqual([
      ["transformers", "reference-implementations", "model"],
      ["ai-coding", "ide-assistants", "interface"],
      ["mcp", "mcp-gateways", "infra"],
      ["rag", "rag-applications", "interface"],
      ["generative-ai", "gans", "model"],
      ["vector-db", "vector-databases", "data"],
      ["prompt-engineering", "prompt-optimization", "orchestration"],
    ]);
  });

  it("classifies the simulator's invented repositories into their own domain, for all 30 domains", async () => {
    const rows: ClassifyRow[] = [];
    const expected: string[] = [];
    for (const domain of SIM_DOMAINS) {
      domain.phrases.forEach((phrase, k) => {
        const name = `sim/${domain.nameParts[k % domain.nameParts.length]}-kit`;
        rows.push(row(name, `Fast ${phrase}`, { topics: [...domain.topics] }));
        rows.push(row(name, `Minimal ${phrase} in Rust`));
        expected.push(domain.slug, domain.slug);
      });
    }
    const results = await classifyRepos(rows);
    expect(results.map((r) => r.domain)).toEqual(expected);
    expect(new Set(results.map((r) => r.domain)).size).toBe(DOMAINS.length);
  });
});

describe("the labelled repositories", () => {
  const evaluate = async (file: string) => {
    const rows = parseClassifyInput(readFileSync(file, "utf8"));
    const report = evaluateClassifications(rows, await classifyRepos(rows));
    expect(report.rows).toBe(rows.length);
    return report;
  };

  it("the tuning part (78): domain (or an also_ok) right for at least 97%, stack layer for at least 95%", async () => {
    const report = await evaluate(TUNING_FILE);
    expect(report.rows).toBe(78);
    expect([report.domain_correct, report.layer_correct]).toEqual([78, 76]);
    expect(report.domain_accuracy).toBeGreaterThanOrEqual(0.97);
    expect(report.layer_accuracy).toBeGreaterThanOrEqual(0.95);
  });

  it("the held-out part (12, never tuned on): domain right for at least 90%, stack layer for at least 85%", async () => {
    const report = await evaluate(HOLDOUT_FILE);
    expect(report.rows).toBe(12);
    expect([report.domain_correct, report.layer_correct]).toEqual([12, 12]);
    expect(report.domain_accuracy).toBeGreaterThanOrEqual(0.9);
    expect(report.layer_accuracy).toBeGreaterThanOrEqual(0.85);
  });
});

describe("parseClassifyInput", () => {
  it("skips blank lines and reads optional fields", () => {
    expect(
      parseClassifyInput('{"full_name":"a/b"}\n\n{"full_name":"c/d","topics":["rag"],"description":null}\n'),
    ).toEqual([{ full_name: "a/b" }, { full_name: "c/d", topics: ["rag"], description: null }]);
  });

  it.each([
    ['{"full_name":"a/b"}\n{oops', "input line 2: invalid JSON"],
    ['{"description":"x"}', "input line 1: full_name: Invalid input: expected string, received undefined."],
    ['{"full_name":"nobody"}', "input line 1: full_name: must be owner/name."],
    [
      '{"full_name":"a/b","topics":"rag"}',
      "input line 1: topics: Invalid input: expected array, received string.",
    ],
  ])("rejects %j naming the line and the problem", (input, message) => {
    expect(() => parseClassifyInput(input)).toThrow(message);
  });
});

describe("evaluateClassifications", () => {
  it("counts also_ok as correct and lists every miss", () => {
    const rows = [
      row("a/one", null, { domain: "rag", also_ok: ["agents"], stack_layer: "orchestration" }),
      row("a/two", null, { domain: "mcp", also_ok: [], stack_layer: "interface" }),
      row("a/three", null),
    ];
    const result = (full_name: string, domain: string, stack_layer: string) => ({
      full_name,
      domain,
      subcategory: null,
      stack_layer,
      rule: "r",
    });
    const report = evaluateClassifications(rows, [
      result("a/one", "agents", "orchestration"),
      result("a/two", "agents", "interface"),
      result("a/three", "nlp", "model"),
    ]);
    expect(report).toEqual({
      rows: 2,
      domain_correct: 1,
      layer_correct: 2,
      domain_accuracy: 0.5,
      layer_accuracy: 1,
      misses: [
        {
          ...result("a/two", "agents", "interface"),
          expected_domain: "mcp",
          also_ok: [],
          expected_layer: "interface",
        },
      ],
    });
  });
});
