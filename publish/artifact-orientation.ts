// The orientation artifact: the documents behind GET /api/v1/status, /tables, /workflows and /methodology, each a
// JSON file of the release served as `data` in the item envelope.
import { methodologyDocument, methodologyMarkdown } from "../pipeline/methodology-doc.ts";
import { methodologySchema } from "../schemas/index.ts";
import type { Artifact } from "./artifacts.ts";
import { statusDocument, tablesDocument, workflowsDocument } from "./orientation.ts";
import { METHODOLOGY_FILE } from "./routes/methodology.ts";
import { STATUS_FILE } from "./routes/status.ts";
import { TABLES_FILE } from "./routes/tables.ts";
import { WORKFLOWS_FILE } from "./routes/workflows.ts";

export const renderOrientationFiles: Artifact = async (context, write) => {
  const ids = { runDate: context.runDate, releaseId: context.releaseId };
  const methodology = methodologySchema.parse({ ...methodologyDocument(), markdown: methodologyMarkdown() });
  const documents: [string, unknown][] = [
    [STATUS_FILE, await statusDocument(context.db, ids)],
    [TABLES_FILE, await tablesDocument(context.db, ids)],
    [WORKFLOWS_FILE, await workflowsDocument(context.db)],
    [METHODOLOGY_FILE, methodology],
  ];
  for (const [path, document] of documents) {
    await write({ path, body: Buffer.from(JSON.stringify(document), "utf8") });
  }
};
