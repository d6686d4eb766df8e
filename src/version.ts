// The package's own version (package.json), for health, the CLI, the OpenAPI document and webhook user agents.
import { readFileSync } from "node:fs";

export const version: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
