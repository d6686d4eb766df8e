// The scenario format as JSON Schema, generated from the zod schema, for editors (yaml-language-server).
import { z } from "zod";
import { scenarioSchema } from "./schema.js";

/** Input-side JSON Schema: what a file may say (durations as text or ms, defaults optional). */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(scenarioSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return {
    ...schema,
    $id: "https://voice-sandbox.dev/scenario.schema.json",
    title: "voice-sandbox scenario",
    description:
      "A scenario: setup, steps on the virtual clock and expectations. Start a file with `# yaml-language-server: $schema=<path to scenario.schema.json>`.",
  };
}

/** The file's text, as `npm run build` writes it to scenario.schema.json. */
export function scenarioJsonSchemaText(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}
