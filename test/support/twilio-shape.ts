// Checks a response body against our zod schema (no missing or extra keys) and against a Twilio OpenAPI resource's properties.
import { expect } from "vitest";
import { z } from "zod";

/** One property of a Twilio resource as taken from Twilio's OpenAPI document (`type` null: any JSON type). */
export type TwilioProperty = { type: string | null; enum?: string[]; nullable: boolean };

/** A resource's object schema, as it is or built on first use (the route modules' `z.lazy`). */
// biome-ignore lint/suspicious/noExplicitAny: zod object schemas of any shape.
export type ObjectSchema = z.ZodObject<any> | z.ZodLazy<z.ZodObject<any>>;

/** The object schema itself; for a `z.lazy`, zod's `unwrap()` builds it anew (the same shape as the one routes use). */
// biome-ignore lint/suspicious/noExplicitAny: zod object schemas of any shape.
export function objectSchema(schema: ObjectSchema): z.ZodObject<any> {
  return schema instanceof z.ZodLazy ? schema.unwrap() : schema;
}

/** Twilio's JSON type and enum for one value (every Twilio property is nullable). */
export function agreesWithTwilio(value: unknown, property: TwilioProperty): boolean {
  if (value === null) return property.nullable;
  if (property.enum && !property.enum.includes(value as string)) return false;
  switch (property.type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && !Array.isArray(value);
    default:
      return true;
  }
}

/** The body parses with the schema made strict, and each of Twilio's properties it carries has Twilio's type. */
export function expectTwilioShape(
  body: unknown,
  schema: ObjectSchema,
  twilio?: { name: string; properties: Record<string, TwilioProperty> },
): void {
  const parsed = objectSchema(schema).strict().safeParse(body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  if (!twilio) return;
  for (const [key, property] of Object.entries(twilio.properties)) {
    const value = (body as Record<string, unknown>)[key];
    expect(agreesWithTwilio(value, property), `${twilio.name}.${key} = ${JSON.stringify(value)}`).toBe(true);
  }
}
