// Conference, participant, conference recording, queue and member responses: our schemas exactly, and Twilio's properties and types.
import { describe, expect, it } from "vitest";
import { participantResource } from "../../src/http/account-api/conference-participants.js";
import { conferenceRecordingResource } from "../../src/http/account-api/conference-recordings.js";
import { conferenceResource } from "../../src/http/account-api/conferences.js";
import { memberResource, queueResource } from "../../src/http/account-api/queues.js";
import type { Sandbox } from "../../src/index.js";
import {
  insertCall,
  insertConference,
  insertParticipant,
  insertQueue,
  insertQueueMember,
  insertRecording,
} from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";
import { expectTwilioShape, type ObjectSchema, type TwilioProperty } from "../support/twilio-shape.js";
import shapes from "./room-shapes.json" with { type: "json" };

const twilio = shapes.resources as unknown as Record<string, { properties: Record<string, TwilioProperty> }>;
const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

/** Our schema exactly, and every one of Twilio's properties present with Twilio's type. */
function check(body: unknown, schema: ObjectSchema, twilioName: string) {
  const properties = twilio[twilioName]!.properties;
  expectTwilioShape(body, schema, { name: twilioName, properties });
  for (const key of Object.keys(properties)) {
    expect(key in (body as object), `${twilioName}.${key} is missing`).toBe(true);
  }
}

/** A finished recorded conference with one participant left in it, and a queue with one caller. */
function seed(sandbox: Sandbox) {
  const call = insertCall(sandbox);
  const conference = insertConference(sandbox, { record: true });
  const recording = insertRecording(sandbox, call);
  sandbox.store.recordings.replace({ ...recording, conference_sid: conference.sid, source: "Conference" });
  insertParticipant(sandbox, conference, call.sid, { muted: true });
  const queue = insertQueue(sandbox, "support");
  insertQueueMember(sandbox, queue, call.sid);
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
