// Turns zod issues into declared errors, in the terms of each surface.
import type { z } from "zod";
import { errors, SandboxError } from "../domain/errors.js";
import { twilioMissingWording, twilioWording } from "../domain/twilio-wording.js";

type Issue = z.core.$ZodIssue;

const describe = (issue: Issue): string => {
  if (issue.code === "unrecognized_keys") return `unknown key(s): ${issue.keys.join(", ")}`;
  return issue.message;
};

/** One error that carries the others found in the same request. */
const joinAll = (list: SandboxError[]): SandboxError => {
  const first = list[0]!;
  if (list.length === 1) return first;
  const { status, code, title, message, source } = first;
  return new SandboxError({ status, code, title, message, ...(source ? { source } : {}) }, list.slice(1));
};

/** Account API: the first bad form or query parameter, as a Twilio 400 with that parameter's code. */
export function accountParameterError(
  issues: Issue[],
  codes: Record<string, number> = {},
  missingCodes: Record<string, number> = {},
): SandboxError {
  const issue = issues[0]!;
  const parameter = issue.code === "unrecognized_keys" ? (issue.keys[0] ?? "") : String(issue.path[0] ?? "");
  const missing = issue.code === "invalid_type" && issue.input === undefined;
  const code = (missing ? missingCodes[parameter] : undefined) ?? codes[parameter];
  const wording = code === undefined ? undefined : twilioWording[code];
  const message = missing
    ? ((code === undefined ? undefined : twilioMissingWording[code]) ??
      `Missing required parameter ${parameter}.`)
    : wording && typeof issue.input === "string"
      ? wording(issue.input)
      : `Invalid ${parameter}: ${describe(issue)}.`;
  return errors.invalidParameter(parameter, message, code);
}

/** Carrier API body: every problem, 422 each, with a JSON pointer to the member at fault. */
export function documentErrors(issues: Issue[]): SandboxError {
  return joinAll(
    issues.flatMap((issue) => {
      const base = `/${issue.path.map(String).join("/")}`;
      if (issue.code === "unrecognized_keys") {
        return issue.keys.map((key) =>
          errors.invalidAttribute(`${base === "/" ? "" : base}/${key}`, `${key} is not a known member here.`),
        );
      }
      const where = issue.path.length > 0 ? issue.path.map(String).join(".") : "the document";
      const message =
        issue.code === "invalid_type" && issue.input === undefined
          ? `${where} is required.`
          : `${where} ${issue.message.replace(/^Invalid input: /, "")}.`.replace(/\.\.$/, ".");
      return [errors.invalidAttribute(base === "/" ? "" : base, message)];
    }),
  );
}

/** Query parameters on the carrier and admin APIs: 400 with the parameter named. */
export function queryErrors(issues: Issue[]): SandboxError {
  return joinAll(
    issues.flatMap((issue) => {
      if (issue.code === "unrecognized_keys") {
        return issue.keys.map((key) =>
          errors.invalidParameter(key, `${key} is not a supported query parameter here.`),
        );
      }
      const parameter = String(issue.path[0] ?? "");
      return [errors.invalidParameter(parameter, `${parameter}: ${issue.message}.`)];
    }),
  );
}
