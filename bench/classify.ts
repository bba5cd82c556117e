// Classification figures: accuracy on the labelled real repositories of test/fixtures/labelled-repos.jsonl
// (domain right when it is the label or an accepted alternate; stack layer), and the time to classify them.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { classifyRepos, evaluateClassifications, parseClassifyInput } from "../pipeline/classify.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const LABELLED = path.resolve(ROOT, "test", "fixtures", "labelled-repos.jsonl");

export async function benchClassify() {
  const rows = parseClassifyInput(await readFile(LABELLED, "utf8"), LABELLED);
  const started = performance.now();
  const results = await classifyRepos(rows);
  const ms = Math.round(performance.now() - started);
  const report = evaluateClassifications(rows, results);
  return {
    file: path.relative(ROOT, LABELLED),
    rows: report.rows,
    domain_correct: report.domain_correct,
    domain_accuracy: report.domain_accuracy,
    layer_correct: report.layer_correct,
    layer_accuracy: report.layer_accuracy,
    misses: report.misses.map(
      (m) =>
        `${m.full_name}: ${m.domain}/${m.stack_layer}, labelled ${m.expected_domain}/${m.expected_layer}`,
    ),
    ms,
  };
}
