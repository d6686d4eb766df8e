// Build step (`npm run build`): writes scenario.schema.json at the package root from the zod schema.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { scenarioJsonSchemaText } from "./json-schema.js";

const target = fileURLToPath(new URL("../../scenario.schema.json", import.meta.url));
writeFileSync(target, scenarioJsonSchemaText());
process.stdout.write(`wrote ${target}\n`);
