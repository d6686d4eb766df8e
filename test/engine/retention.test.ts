// A sandbox driven past its bound on finished records: the oldest finished go (404 on both APIs), what is under way stays, lists, balance and usage stay right.
import { describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type CallResult, type DoorContext, doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
const basic = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;

/** What both sandboxes are asked: the same requests, in the same order. */
interface Step {
  method: string;
  path: string;
  form?: Record<string, string>;
}

/** The same requests sent to a sandbox that keeps every record: what balance and usage must read anyway. */
async function sendTo(sandbox: Sandbox, step: Step): Promise<unknown> {
  const response = await sandbox.fetch(`${sandbox.baseUrl}${step.path}`, {
    method: step.method,
    headers: {
      authorization: basic,
      ...(step.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    ...(step.form ? { body: new URLSearchParams(step.form).toString() } : {}),
  });
  return response.json();
}

/** Follows `next_page_uri` to the end: every sid, newest first, and how many pages. */
async function accountPages(ctx: DoorContext, first: string, key: string) {
  const sids: string[] = [];
  let pages = 0;
  for (let uri: string | null = first; uri; pages++) {
    const res: CallResult = await ctx.call("GET", uri, { auth: acmeAuth });
    expect(res.status, res.text).toBe(200);
    sids.push(...res.json[key].map((r: { sid: string }) => r.sid));
    uri = res.json.next_page_uri;
  }
  return { sids, pages };
}

/** Follows `links.next` to the end: every id, oldest first, and the total each page gave. */
async function carrierPages(ctx: DoorContext, first: string) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let link: string | null = first; link; ) {
    const res: CallResult = await ctx.call("GET", link, { auth: carrierAuth });
    expect(res.status, res.text).toBe(200);
    ids.push(...res.json.data.map((r: { id: string }) => r.id));
    totals.add(res.json.meta.total);
    link = res.json.links.next;
  }
  return { ids, totals: [...totals] };
}

const usage = (records: {
  usage_records: { category: string; count: string; usage: string; price: string }[];
}) =>
  records.usage_records
    .filter((r) => ["sms", "calls", "recordings", "totalprice"].includes(r.category))
    .map((r) => [r.category, r.count, r.usage, r.price]);

describe.each(doorNames)("a sandbox past its bound on records via %s", (door) => {
  const ctx = useDoor(door, { retain: { maxCount: 3 } });

  /** Runs `steps` here and in a twin that keeps everything; the twin's clock follows this one's. */
  async function both(twin: Sandbox, steps: Step[]): Promise<CallResult[]> {
    const answers: CallResult[] = [];
    for (const step of steps) {
      const res = await ctx.call(step.method, step.path, {
        auth: acmeAuth,
        ...(step.form ? { form: step.form } : {}),
      });
      expect(res.status, res.text).toBeLessThan(300);
      answers.push(res);
      await sendTo(twin, step);
    }
    return answers;
  }
  const advanceBoth = async (twin: Sandbox, ms: number) => {
    await ctx.sandbox.clock.advance(ms);
    await ctx.sandbox.settle();
    await twin.clock.advance(ms);
    await twin.settle();
  };
  const balance = async () =>
    (await ctx.call("GET", `/carrier/v1/accounts/${fixtures.acme.sid}/balances`, { auth: carrierAuth })).json
      .data.attributes.balance_cents;

  it("drops the oldest finished messages: 404 on both APIs, pages and totals of what is left, balance and usage unchanged", async () => {
    const twin = createSandbox({ retain: false });
    const send = (n: number): Step => ({
      method: "POST",
      path: `${base}/Messages.json`,
      form: { To: "+15558675310", From: fixtures.acme.mainNumber, Body: `message ${n}` },
    });
    const sent = (await both(twin, [0, 1, 2, 3, 4, 5, 6].map(send))).map((res) => res.json.sid as string);
    await advanceBoth(twin, 5_000);
    // Still under way, so kept whatever the bound: the newest one, queued.
    const queued = (await both(twin, [send(7)]))[0]!.json.sid as string;

    for (const sid of sent.slice(0, 4)) {
      expect((await ctx.call("GET", `${base}/Messages/${sid}.json`, { auth: acmeAuth })).status).toBe(404);
      const carrier = await ctx.call("GET", `/carrier/v1/messages/${sid}`, { auth: carrierAuth });
      expect(carrier.status).toBe(404);
      expect(carrier.json.errors[0].status).toBe("404");
    }
    for (const sid of [...sent.slice(4), queued])
      expect((await ctx.call("GET", `${base}/Messages/${sid}.json`, { auth: acmeAuth })).status).toBe(200);

    const kept = [...sent.slice(4), queued];
    const account = await accountPages(ctx, `${base}/Messages.json?PageSize=3`, "messages");
    expect(account).toEqual({ sids: [...kept].reverse(), pages: 2 });
    const carrier = await carrierPages(ctx, "/carrier/v1/messages?per_page=3");
    expect(carrier).toEqual({ ids: kept, totals: [4] });
    const delivered = await carrierPages(ctx, "/carrier/v1/messages?filter[status]=delivered&per_page=2");
    expect(delivered).toEqual({ ids: sent.slice(4), totals: [3] });

    const twinBalance = (await (
      await twin.fetch(`${twin.baseUrl}/carrier/v1/accounts/${fixtures.acme.sid}/balances`, {
        headers: { authorization: `Bearer ${fixtures.carrierKey}` },
      })
    ).json()) as { data: { attributes: { balance_cents: number } } };
    expect(await balance()).toBe(twinBalance.data.attributes.balance_cents);
    for (const path of [`${base}/Usage/Records.json`, `${base}/Usage/Records/Daily.json?Category=sms`]) {
      const here = await ctx.call("GET", path, { auth: acmeAuth });
      expect(usage(here.json)).toEqual(usage((await sendTo(twin, { method: "GET", path })) as never));
    }
    expect(
      usage((await ctx.call("GET", `${base}/Usage/Records.json`, { auth: acmeAuth })).json),
    ).toContainEqual(["sms", "7", "7", expect.any(Number)]);
  });

  it("keeps a call in progress however old; finished calls go with their recordings, usage and balance unchanged", async () => {
    const twin = createSandbox({ retain: false });
    const call = (twiml: string, record = false): Step => ({
      method: "POST",
      path: `${base}/Calls.json`,
      form: {
        To: "+15558675310",
        From: fixtures.acme.mainNumber,
        Twiml: twiml,
        ...(record ? { Record: "true" } : {}),
      },
    });
    const [long] = await both(twin, [call('<Response><Pause length="600"/></Response>')]);
    const short = await both(
      twin,
      [0, 1, 2, 3, 4].map(() => call("<Response><Say>Thank you for calling.</Say></Response>", true)),
    );
    await advanceBoth(twin, 60_000);
    const shortSids = short.map((res) => res.json.sid as string);
    const recordingOf = (sid: string) => ctx.sandbox.store.recordings.where("call", sid)[0];
    const kept = shortSids.slice(2).map((sid) => recordingOf(sid)!.sid);
    expect(kept).toHaveLength(3);

    expect(
      (await ctx.call("GET", `${base}/Calls/${long!.json.sid}.json`, { auth: acmeAuth })).json.status,
    ).toBe("in-progress");
    for (const sid of shortSids.slice(0, 2)) {
      expect((await ctx.call("GET", `${base}/Calls/${sid}.json`, { auth: acmeAuth })).status).toBe(404);
      expect((await ctx.call("GET", `/carrier/v1/phone_calls/${sid}`, { auth: carrierAuth })).status).toBe(
        404,
      );
      expect((await ctx.call("GET", `${base}/Calls/${sid}/Recordings.json`, { auth: acmeAuth })).status).toBe(
        404,
      );
      expect(recordingOf(sid)).toBeUndefined();
    }
    const recordings = await accountPages(ctx, `${base}/Recordings.json?PageSize=2`, "recordings");
    expect(recordings.sids).toEqual([...kept].reverse());
    for (const sid of kept)
      expect((await ctx.call("GET", `${base}/Recordings/${sid}.json`, { auth: acmeAuth })).status).toBe(200);
    const calls = await carrierPages(ctx, "/carrier/v1/phone_calls?per_page=2");
    expect(calls).toEqual({ ids: [long!.json.sid, ...shortSids.slice(2)], totals: [4] });

    const path = `${base}/Usage/Records.json`;
    const calledUsage = usage((await ctx.call("GET", path, { auth: acmeAuth })).json);
    expect(calledUsage).toEqual(usage((await sendTo(twin, { method: "GET", path })) as never));
    expect(calledUsage.find(([category]) => category === "calls")?.[1]).toBe("5");
    const ledger = await ctx.call("GET", `/carrier/v1/accounts/${fixtures.acme.sid}/balances`, {
      auth: carrierAuth,
    });
    const twinLedger = (await (
      await twin.fetch(`${twin.baseUrl}/carrier/v1/accounts/${fixtures.acme.sid}/balances`, {
        headers: { authorization: `Bearer ${fixtures.carrierKey}` },
      })
    ).json()) as { data: { attributes: { balance_cents: number } } };
    expect(ledger.json.data.attributes.balance_cents).toBe(twinLedger.data.attributes.balance_cents);
    expect(ctx.sandbox.store.ledger.size).toBeLessThanOrEqual(3 + 2);
  });
});
