// Lists walk sorted indexes page by page: following the links of either surface gives exactly what filtering every record gives, and events beyond the retention bound go oldest first.
import { describe, expect, it } from "vitest";
import {
  insertCall,
  insertConference,
  insertRecording,
  insertTranscription,
} from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
const recipients = ["+15558675310", "+15558675311", "+15558675312"];

describe.each(doorNames)("list paging via %s", (door) => {
  const ctx = useDoor(door, { events: { maxCount: 6 } });

  async function sendMessages(count: number): Promise<{ sid: string; to: string }[]> {
    const sent: { sid: string; to: string }[] = [];
    for (let n = 0; n < count; n++) {
      const to = recipients[n % recipients.length]!;
      const res = await ctx.call("POST", `${base}/Messages.json`, {
        auth: acmeAuth,
        form: { To: to, From: fixtures.acme.mainNumber, Body: `message ${n}` },
      });
      expect(res.status).toBe(201);
      sent.push({ sid: res.json.sid, to });
    }
    return sent;
  }

  it("account API: next_page_uri links walk a filtered list newest first, each record once", async () => {
    const sent = await sendMessages(11);
    const expected = sent
      .filter((m) => m.to === recipients[1])
      .map((m) => m.sid)
      .reverse();
    const seen: string[] = [];
    let uri: string | null = `${base}/Messages.json?To=${encodeURIComponent(recipients[1]!)}&PageSize=2`;
    let pages = 0;
    while (uri) {
      const res = await ctx.call("GET", uri, { auth: acmeAuth });
      expect(res.status).toBe(200);
      seen.push(...res.json.messages.map((m: { sid: string }) => m.sid));
      expect(res.json.page).toBe(pages);
      uri = res.json.next_page_uri;
      pages += 1;
    }
    expect(seen).toEqual(expected);
    expect(pages).toBe(2);
    // A page asked for by number alone gives the same records as the token link.
    const second = await ctx.call(
      "GET",
      `${base}/Messages.json?To=${encodeURIComponent(recipients[1]!)}&PageSize=2&Page=1`,
      {
        auth: acmeAuth,
      },
    );
    expect(second.json.messages.map((m: { sid: string }) => m.sid)).toEqual(expected.slice(2));
    expect(second.json.next_page_uri).toBeNull();
    expect(second.json.previous_page_uri).toContain("Page=0");
  });

  it("carrier API: pages, total and last link of a filtered list match a filter over every record", async () => {
    const sent = await sendMessages(10);
    const all = await ctx.call("GET", "/carrier/v1/messages?per_page=100", { auth: carrierAuth });
    const expected = all.json.data
      .filter((m: { attributes: { to: string } }) => m.attributes.to === recipients[0])
      .map((m: { id: string }) => m.id);
    expect(expected).toEqual(sent.filter((m) => m.to === recipients[0]).map((m) => m.sid));
    const seen: string[] = [];
    let link: string | null =
      `/carrier/v1/messages?filter[to]=${encodeURIComponent(recipients[0]!)}&per_page=3`;
    while (link) {
      const res = await ctx.call("GET", link, { auth: carrierAuth });
      expect(res.status).toBe(200);
      expect(res.json.meta.total).toBe(expected.length);
      seen.push(...res.json.data.map((m: { id: string }) => m.id));
      if (!res.json.links.next) expect(res.json.links.self).toBe(res.json.links.last);
      link = res.json.links.next;
    }
    expect(seen).toEqual(expected);
    // A filter beside the indexed one still narrows the page and its total.
    const both = await ctx.call(
      "GET",
      `/carrier/v1/messages?filter[to]=${encodeURIComponent(recipients[0]!)}&filter[account_id]=${fixtures.globex.sid}`,
      { auth: carrierAuth },
    );
    expect(both.json.meta.total).toBe(0);
    expect(both.json.data).toEqual([]);
  });

  /** Follows `next_page_uri` from `first` to the end: every sid, in order, and how many pages. */
  async function followAccountPages(first: string, key: string): Promise<{ sids: string[]; pages: number }> {
    const sids: string[] = [];
    let uri: string | null = first;
    let pages = 0;
    while (uri) {
      const res = await ctx.call("GET", uri, { auth: acmeAuth });
      expect(res.status).toBe(200);
      sids.push(...res.json[key].map((r: { sid: string }) => r.sid));
      uri = res.json.next_page_uri;
      pages += 1;
    }
    return { sids, pages };
  }

  it("account API: recordings, transcriptions and conferences page by links, each record once, only the account's", async () => {
    const first = insertCall(ctx.sandbox);
    const second = insertCall(ctx.sandbox);
    const foreign = insertCall(ctx.sandbox, { account_sid: fixtures.globex.sid });
    const room = insertConference(ctx.sandbox);
    const recordings = [first, second, first, second, first].map((call) =>
      insertRecording(ctx.sandbox, call),
    );
    const inRoom = [insertRecording(ctx.sandbox, first, { conference_sid: room.sid })];
    insertRecording(ctx.sandbox, foreign);
    inRoom.push(insertRecording(ctx.sandbox, second, { conference_sid: room.sid }));
    const newestFirst = (rows: { sid: string }[]) => rows.map((r) => r.sid).reverse();

    const all = await followAccountPages(`${base}/Recordings.json?PageSize=2`, "recordings");
    expect(all.sids).toEqual(newestFirst([...recordings, ...inRoom]));
    expect(all.pages).toBe(4);
    const ofFirst = await followAccountPages(
      `${base}/Calls/${first.sid}/Recordings.json?PageSize=2`,
      "recordings",
    );
    expect(ofFirst.sids).toEqual(newestFirst([recordings[0]!, recordings[2]!, recordings[4]!, inRoom[0]!]));
    const bySid = await followAccountPages(
      `${base}/Recordings.json?CallSid=${second.sid}&PageSize=1`,
      "recordings",
    );
    expect(bySid.sids).toEqual(newestFirst([recordings[1]!, recordings[3]!, inRoom[1]!]));
    // Another account's call names no recordings here, though its recording exists.
    const otherAccount = await followAccountPages(
      `${base}/Recordings.json?CallSid=${foreign.sid}`,
      "recordings",
    );
    expect(otherAccount.sids).toEqual([]);
    const roomPages = await followAccountPages(
      `${base}/Conferences/${room.sid}/Recordings.json?PageSize=1`,
      "recordings",
    );
    expect(roomPages.sids).toEqual(newestFirst(inRoom));

    const transcribed = [recordings[0]!, recordings[1]!, recordings[0]!].map((r) =>
      insertTranscription(ctx.sandbox, r),
    );
    const transcriptions = await followAccountPages(
      `${base}/Transcriptions.json?PageSize=2`,
      "transcriptions",
    );
    expect(transcriptions.sids).toEqual(newestFirst(transcribed));
    const ofRecording = await followAccountPages(
      `${base}/Recordings/${recordings[0]!.sid}/Transcriptions.json?PageSize=1`,
      "transcriptions",
    );
    expect(ofRecording.sids).toEqual(newestFirst([transcribed[0]!, transcribed[2]!]));

    const rooms = [
      room,
      insertConference(ctx.sandbox),
      insertConference(ctx.sandbox, { status: "completed" }),
    ];
    const conferences = await followAccountPages(`${base}/Conferences.json?PageSize=2`, "conferences");
    expect(conferences.sids).toEqual(newestFirst(rooms));
    const done = await followAccountPages(
      `${base}/Conferences.json?Status=completed&PageSize=1`,
      "conferences",
    );
    expect(done.sids).toEqual([rooms[2]!.sid]);
  });

  it("keeps only the newest events within the retention bound, dropping the oldest first", async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 9; n++) {
      const res = await ctx.call("POST", `/carrier/v1/accounts/${fixtures.acme.sid}/balances/top_up`, {
        auth: carrierAuth,
        json: { amount_cents: n, category: "voice" },
      });
      expect(res.status).toBe(201);
      ids.push(res.json.data.id);
    }
    const events = await ctx.call("GET", "/carrier/v1/events?per_page=100", { auth: carrierAuth });
    expect(events.json.meta.total).toBe(6);
    expect(
      events.json.data.map((e: { attributes: { resource_id: string } }) => e.attributes.resource_id),
    ).toEqual(ids.slice(-6));
  });
});
