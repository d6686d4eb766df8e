// The package's own version (package.json), for health, the CLI, the OpenAPI document and webhook user agents.
import { readFileSync } from "node:fs";
import { packageFile } from "./package-files.js";

export const version: string = (
  JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string }
).version;
