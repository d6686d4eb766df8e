// Conference, participant, conference recording, queue and member responses: our schemas exactly, and Twilio's properties and types.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  conferenceRecordingResource,
  conferenceResource,
  participantResource,
} from "../../src/http/account-api/conferences.js";
import { memberResource, queueResource } from "../../src/http/account-api/queues.js";
import type { Sandbox } from "../../src/index.js";
import { insertCall, insertRecording } from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";
import shapes from "./room-shapes.json" with { type: "json" };

type TwilioProperty = { type: string | null; enum?: string[]; nullable: boolean };
const twilio = shapes.resources as unknown as Record<string, { properties: Record<string, TwilioProperty> }>;
// biome-ignore lint/suspicious/noExplicitAny: zod object schemas of any shape.
type ObjectSchema = z.ZodObject<any>;
const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

function agrees(value: unknown, property: TwilioProperty): boolean {
  if (value === null) return property.nullable;
  if (property.enum && !property.enum.includes(value as string)) return false;
  if (property.type === "integer") return Number.isInteger(value);
  if (property.type === "object") return typeof value === "object" && !Array.isArray(value);
  return property.type === null || typeof value === property.type;
}

function check(body: unknown, schema: ObjectSchema, twilioName: string) {
  const parsed = schema.strict().safeParse(body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  for (const [key, property] of Object.entries(twilio[twilioName]!.properties)) {
    const value = (body as Record<string, unknown>)[key];
    expect(key in (body as object), `${twilioName}.${key} is missing`).toBe(true);
    expect(agrees(value, property), `${twilioName}.${key} = ${JSON.stringify(value)}`).toBe(true);
  }
}

/** A finished recorded conference with one participant left in it, and a queue with one caller. */
function seed(sandbox: Sandbox) {
  const call = insertCall(sandbox);
  const now = sandbox.clock.now();
  const account_sid = fixtures.acme.sid;
  const conference = sandbox.store.conferences.insert({
    sid: sandbox.engine.ids.mint("CF"),
    account_sid,
    friendly_name: "room",
    status: "in-progress",
    region: "us1",
    reason_conference_ended: null,
    call_sid_ending_conference: null,
    record: true,
    status_callback: null,
    status_callback_method: "POST",
    status_callback_events: [],
    recording_status_callback: null,
    recording_status_callback_method: "POST",
    recording_status_callback_events: [],
    recording_sid: null,
    started_at: now,
    ended_at: null,
    created_at: now,
    updated_at: now,
  });
  const recording = insertRecording(sandbox, call);
  sandbox.store.recordings.replace({ ...recording, conference_sid: conference.sid, source: "Conference" });
  sandbox.store.participants.insert({
    account_sid,
    conference_sid: conference.sid,
    call_sid: call.sid,
    label: null,
    muted: true,
    hold: false,
    start_conference_on_enter: true,
    end_conference_on_exit: false,
    beep: "true",
    status: "connected",
    created_at: now,
    updated_at: now,
  });
  const queue = sandbox.store.queues.insert({
    sid: sandbox.engine.ids.mint("QU"),
    account_sid,
    friendly_name: "support",
    max_size: 100,
    created_at: now,
    updated_at: now,
  });
  sandbox.store.queueMembers.insert({
    call_sid: call.sid,
    queue_sid: queue.sid,
    account_sid,
    enqueued_at: now,
  });
  return { call, conference, queue };
}

describe.each(doorNames)("conference and queue shapes via %s", (door) => {
  const ctx = useDoor(door);
  const get = async (path: string) => {
    const response = await ctx.call("GET", path, { auth: acmeAuth });
    expect(response.status, response.text).toBe(200);
    return response.json;
  };

  it("every resource, fetched and listed, has Twilio's properties with Twilio's types", async () => {
    const { call, conference, queue } = seed(ctx.sandbox);
    const room = `${base}/Conferences/${conference.sid}`;
    check(await get(`${room}.json`), conferenceResource, "conference");
    check((await get(`${base}/Conferences.json`)).conferences[0], conferenceResource, "conference");
    check(await get(`${room}/Participants/${call.sid}.json`), participantResource, "participant");
    check((await get(`${room}/Participants.json`)).participants[0], participantResource, "participant");
    const recordings = (await get(`${room}/Recordings.json`)).recordings;
    check(recordings[0], conferenceRecordingResource, "conference_recording");
    check(await get(`${base}/Queues/${queue.sid}.json`), queueResource, "queue");
    check((await get(`${base}/Queues.json`)).queues[0], queueResource, "queue");
    check(await get(`${base}/Queues/${queue.sid}/Members/Front.json`), memberResource, "queue_member");
    check(
      (await get(`${base}/Queues/${queue.sid}/Members.json`)).queue_members[0],
      memberResource,
      "queue_member",
    );
  });
});
