// Prints the end-of-run summary for people; the same reports go to the manifest as JSON for machines.
type Report = Record<string, unknown>;

function line(label: string, value: unknown): string {
  return `  ${label.padEnd(26)} ${typeof value === "object" ? JSON.stringify(value) : String(value)}\n`;
}

export function printSummary(reports: object, out: NodeJS.WritableStream = process.stdout): void {
  for (const [stage, report] of Object.entries(reports)) {
    if (!report || typeof report !== "object") {
      if (report !== undefined) out.write(line(stage, report));
      continue;
    }
    out.write(`${stage}:\n`);
    for (const [key, value] of Object.entries(report as Report)) {
      if (key === "sources" && Array.isArray(value)) {
        for (const source of value as Report[]) {
          const { source: name, ...rest } = source;
          out.write(line(`source ${String(name)}`, rest));
        }
      } else if (value !== undefined) {
        out.write(line(key, value));
      }
    }
  }
}
