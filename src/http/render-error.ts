// The one place errors become responses: Twilio's error body, JSON:API errors, or admin JSON.
import { isSandboxError, SandboxError } from "../domain/errors.js";
import { twilioAuthenticateMessage } from "../domain/twilio-wording.js";
import { twilioCodeFor } from "./account-api/error-codes.js";
import { carrierCodeFor } from "./carrier-api/error-codes.js";
import { jsonApi, jsonResponse, twilioJson } from "./respond.js";
import type { SandboxResponse, Surface } from "./types.js";

const moreInfo = (code: number) => `https://www.twilio.com/docs/errors/${code}`;

/** `path` lets an account API error without a Twilio code of its own take the one its resource documents. */
export function renderError(surface: Surface, error: unknown, path = ""): SandboxResponse {
  const failure: SandboxError = isSandboxError(error) ? error : internalError(error);
  let response: SandboxResponse;
  if (surface === "account") {
    // Twilio's key order: code, message, more_info, status (auth errors add detail).
    const code = twilioCodeFor(failure, path);
    response = twilioJson(failure.status, {
      code,
      message: failure.status === 401 ? twilioAuthenticateMessage : failure.message,
      more_info: moreInfo(code),
      status: failure.status,
      ...(failure.status === 401 ? { detail: failure.message.replace(/^Authenticate: /, "") } : {}),
    });
  } else if (surface === "carrier") {
    response = jsonApi(failure.status, {
      jsonapi: { version: "1.1" },
      errors: failure.all().map((e) => ({
        status: String(e.status),
        code: carrierCodeFor(e),
        title: e.title,
        detail: e.message,
        ...(e.source ? { source: e.source } : {}),
      })),
    });
  } else {
    response = jsonResponse(failure.status, {
      error: {
        status: failure.status,
        title: failure.title,
        message: failure.message,
        ...(failure.source ?? {}),
      },
    });
  }
  response.headers = { ...response.headers, ...failure.headers };
  return response;
}

function internalError(error: unknown): SandboxError {
  const message = error instanceof Error ? error.message : String(error);
  return new SandboxError({
    status: 500,
    code: 500,
    title: "Internal Server Error",
    message: `Internal error: ${message}`,
  });
}
