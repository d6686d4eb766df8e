// The published JSON Schema: current with the zod schema, and it accepts every example (what editors check against).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { scenarioJsonSchemaText } from "../../src/scenarios/json-schema.js";

const repoRoot = join(import.meta.dirname, "../..");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

describe("scenario.schema.json", () => {
  it("is what npm run build generates from the zod schema (regenerate it when the format changes)", async () => {
    expect(await readFile(join(repoRoot, "scenario.schema.json"), "utf8")).toBe(scenarioJsonSchemaText());
  });

  it("accepts every example scenario and refuses a typo", async () => {
    const schema = JSON.parse(await readFile(join(repoRoot, "scenario.schema.json"), "utf8"));
    // With the formats: inline fixtures' URLs are `format: uri`.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const files = globSync("scenarios/*.yaml", { cwd: repoRoot, absolute: true });
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const ok = validate(parse(await readFile(file, "utf8")));
      expect(ok, `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate({ name: "x", steps: [{ wiat: "5s" }] })).toBe(false);
  });
});
