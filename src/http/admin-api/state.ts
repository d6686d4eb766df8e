// Admin: reset to the fixtures (or to empty), and the whole state as a snapshot to read or restore.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { StoreLoader } from "../../domain/store-stream.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";
import { ndjsonMediaType } from "../types.js";
import { sandboxSnapshotSchema } from "./snapshot-schema.js";
import {
  finishLoading,
  jsonState,
  ndjsonState,
  readNdjsonState,
  type StateHeader,
  splitLines,
} from "./state-stream.js";

export const stateRoutes = [
  defineRoute({
    method: "POST",
    path: "/__sandbox/reset",
    surface: "admin",
    summary: "Reset the sandbox to its fixtures (default) or to empty",
    auth: { kind: "admin" },
    body: z.lazy(() => z.strictObject({ to: z.enum(["fixtures", "empty"]).default("fixtures") })),
    response: z.lazy(() => z.strictObject({ reset: z.enum(["fixtures", "empty"]) })),
    handle({ body, services }) {
      services.admin.reset(body.to);
      return jsonResponse(200, { reset: body.to });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/__sandbox/state",
    surface: "admin",
    summary:
      "The whole state as a JSON snapshot, streamed; NDJSON (a header line, a line per row, a closing line) with Accept: application/x-ndjson",
    auth: { kind: "admin" },
    response: sandboxSnapshotSchema,
    handle({ request, services }) {
      const state = services.admin.captureState();
      const ndjson = (request.headers.accept ?? "").includes(ndjsonMediaType);
      return {
        status: 200,
        headers: { "content-type": ndjson ? ndjsonMediaType : "application/json; charset=utf-8" },
        body: "",
        stream: ndjson ? ndjsonState(state) : jsonState(state),
      };
    },
  }),
  defineRoute({
    method: "PUT",
    path: "/__sandbox/state",
    surface: "admin",
    summary:
      "Replace the whole state with a snapshot taken by GET /__sandbox/state (JSON, or NDJSON streamed with Content-Type: application/x-ndjson)",
    auth: { kind: "admin" },
    body: z.lazy(() => z.unknown()),
    streamsBody: ndjsonMediaType,
    response: z.lazy(() => z.strictObject({ restored: z.literal(true) })),
    async handle({ body, request, services }) {
      if (request.bodyStream) {
        // Read beside the live state, which stays whole until every line has passed.
        const loader = new StoreLoader(services.context.store, true);
        let header: StateHeader;
        try {
          header = await readNdjsonState(splitLines(request.bodyStream), loader);
        } catch (error) {
          // Read the rest and drop it, so the client hears the refusal instead of a reset connection.
          try {
            for await (const _unread of request.bodyStream) {
              // discarded
            }
          } catch {
            // The client went away: nothing to tell it.
          }
          throw errors.unprocessable(
            `The snapshot was refused and nothing changed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        await finishLoading(loader);
        services.admin.restoreLoaded(header, loader);
        return jsonResponse(200, { restored: true });
      }
      try {
        services.admin.restore(body);
      } catch (error) {
        throw errors.unprocessable(
          `The snapshot was refused and nothing changed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return jsonResponse(200, { restored: true });
    },
  }),
];
