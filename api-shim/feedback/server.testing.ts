// A shim in a child process for the feedback durability test: started on a loopback port over the state folder
// given as its argument, it prints its URL on stdout and runs until it is killed.
import { loadConfig } from "../../core/config.ts";
import { startServer } from "../server.ts";

const stateDir = process.argv[2] ?? "";
const server = await startServer({
  config: loadConfig({ overrides: { stateDir, host: "127.0.0.1", port: 0 } }),
});
process.stdout.write(`${server.url}\n`);
