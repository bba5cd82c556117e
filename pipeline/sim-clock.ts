// The simulator's clock over its control API: GET /_sim/clock gives the run date of a night against the simulator,
// POST /_sim/advance moves it on between replayed nights. One place for both, through the project's HTTP client.
import { parseIsoDay } from "../core/clock.ts";
import type { Config } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import { createHttpClient } from "./collect/http.ts";

/** The simulator's date; with `advanceDays`, after moving it on that many days. */
export async function simClock(config: Config, advanceDays?: number): Promise<string> {
  if (!config.simUrl) throw new AppError("No simulator is configured (PROJINTEL_SIM_URL or --sim).");
  const url = advanceDays
    ? `${config.simUrl}/_sim/advance?days=${advanceDays}`
    : `${config.simUrl}/_sim/clock`;
  const http = createHttpClient({ ...config.http, retries: 2 });
  let body: unknown;
  try {
    const response = await http.request(url, { source: "sim", method: advanceDays ? "POST" : "GET" });
    body = response.body;
  } catch (error) {
    throw new AppError(`Cannot reach the simulator's clock at ${url}: ${(error as Error).message}`, {
      hint: "Start it with `projintel sim` or fix PROJINTEL_SIM_URL / --sim.",
      kind: "transient",
      cause: error,
    });
  } finally {
    http.close();
  }
  const day = (body as { date?: unknown } | null)?.date;
  if (typeof day !== "string" || !parseIsoDay(day)) {
    throw new AppError(`The simulator at ${config.simUrl} answered its clock with ${JSON.stringify(body)}.`, {
      hint: "Check that the URL points at a projintel simulator.",
    });
  }
  return day;
}
