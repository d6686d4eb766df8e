// A carrier's test call through a SIP trunk: a call record the call engine then drives like any other call.
import type { Call } from "../../domain/call.js";
import type { SipTrunk } from "../../domain/carrier-records.js";
import { errors } from "../../domain/errors.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { createCallRecord } from "./calls.js";

export interface TestCallInput {
  from: string;
  to: string;
  /** Required when the trunk serves the whole carrier rather than one account. */
  account_sid?: string | undefined;
}

/** What a test call plays once answered, so the far end hears that routing works, then hangs up. */
export const testCallMarkup =
  "<Response><Say>This is a test call through your SIP trunk.</Say><Hangup/></Response>";

/**
 * Places an outbound test call through the trunk to check its routing: a call record in `queued`
 * with the trunk set, which the call engine then drives like any other call.
 */
export function placeTestCall(ctx: EngineContext, trunk: SipTrunk, input: TestCallInput): Call {
  return ctx.store.transact(() => {
    if (trunk.termination_uris.length === 0) {
      throw errors.unprocessable(
        `Trunk ${trunk.sid} has no termination URI to send the call to. Add one with PATCH /carrier/v1/sip_trunks/${trunk.sid}.`,
        { pointer: "/data/attributes/to" },
      );
    }
    if (
      trunk.account_sid !== null &&
      input.account_sid !== undefined &&
      input.account_sid !== trunk.account_sid
    ) {
      throw errors.unprocessable(
        `Trunk ${trunk.sid} belongs to account ${trunk.account_sid}; leave account_id out.`,
        {
          pointer: "/data/attributes/account_id",
        },
      );
    }
    const accountSid = trunk.account_sid ?? input.account_sid;
    if (accountSid === undefined) {
      throw errors.unprocessable(
        "This trunk serves the whole carrier: say which account the test call bills to.",
        {
          pointer: "/data/attributes/account_id",
        },
      );
    }
    const account = ctx.store.accounts.get(accountSid);
    if (!account) {
      throw errors.unprocessable(`Account ${accountSid} does not exist.`, {
        pointer: "/data/attributes/account_id",
      });
    }
    if (account.status !== "active") {
      throw errors.unprocessable(`Account ${accountSid} is suspended; reactivate it to place calls.`, {
        pointer: "/data/attributes/account_id",
      });
    }
    const call = createCallRecord(ctx, {
      accountSid,
      direction: "outbound-api",
      from: input.from,
      to: input.to,
      trunkSid: trunk.sid,
      twiml: testCallMarkup,
    });
    recordEvent(ctx, "sip_trunk.test_call", accountSid, "phone_call", call);
    return call;
  });
}
