// Sets up a scenario's world through the sandbox's own APIs: the account, its numbers, agents, ring groups, parties.

import { type ApiClient, must } from "./api-client.js";
import type { HandlerHost } from "./handler-host.js";
import type { PlayedSandbox } from "./played-sandbox.js";
import type { Scenario, SttResult } from "./schema.js";

/** The scenario's scripted speech-to-text answers, as a list. */
export function sttResults(scenario: Scenario): SttResult[] {
  const stt = scenario.transcriptions;
  return stt === undefined ? [] : Array.isArray(stt) ? stt : [stt];
}

/** Tells the engine what the provider returns for a call's recordings ("*": every call). */
export function applySttResult(core: PlayedSandbox, callSid: string, result: SttResult): void {
  if (result.outcome === "failed") {
    if (callSid === "*") core.calls.transcriptions.failAll(true);
    else core.faults.add({ kind: "transcription", outcome: "fail", call_sid: callSid }, core.clock.now());
    return;
  }
  if (result.text !== undefined || result.segments !== undefined)
    core.calls.transcriptions.script(callSid, {
      ...(result.text !== undefined ? { text: result.text } : {}),
      ...(result.segments !== undefined ? { segments: result.segments } : {}),
    });
}

export interface World {
  accountSid: string;
  /** Agent extension sids by name and by extension. */
  agents: Map<string, { sid: string; extension: string }>;
}

const carrier = { kind: "carrier" } as const;

/** The account the scenario acts as: `account.sid`, or the first account of the fixtures. */
function scenarioAccount(core: PlayedSandbox, scenario: Scenario): string {
  const wanted = scenario.account?.sid;
  if (wanted) {
    if (!core.store.accounts.has(wanted))
      throw new Error(`account.sid ${wanted} is not an account of the fixtures`);
    return wanted;
  }
  const first = core.store.accounts.all()[0];
  if (!first) throw new Error("the fixtures define no account: add one, or use fixtures: default");
  return first.sid;
}

async function setUpNumber(
  core: PlayedSandbox,
  api: ApiClient,
  host: HandlerHost,
  accountSid: string,
  entry: Scenario["numbers"][number],
): Promise<void> {
  const form: Record<string, string> = {};
  const voice = entry.voice !== undefined ? host.inline(entry.number, "voice", entry.voice) : entry.voice_url;
  const sms = entry.sms !== undefined ? host.inline(entry.number, "sms", entry.sms) : entry.sms_url;
  if (voice !== undefined) form.VoiceUrl = host.resolve(voice);
  if (entry.voice_method) form.VoiceMethod = entry.voice_method;
  if (entry.voice_fallback_url) form.VoiceFallbackUrl = host.resolve(entry.voice_fallback_url);
  if (entry.status_callback) form.StatusCallback = host.resolve(entry.status_callback);
  if (sms !== undefined) form.SmsUrl = host.resolve(sms);
  if (entry.friendly_name) form.FriendlyName = entry.friendly_name;

  let record = core.store.phoneNumbers.findOne("number", entry.number);
  if (record && record.account_sid !== null && record.account_sid !== accountSid)
    throw new Error(
      `${entry.number} belongs to account ${record.account_sid}, not the scenario's ${accountSid}`,
    );
  if (!record) {
    // Not in the inventory: the carrier adds it first, as an operator would.
    await must(
      `adding ${entry.number} to the inventory`,
      api.request("POST", "/carrier/v1/phone_numbers", {
        auth: carrier,
        json: { data: { type: "phone_number", attributes: { number: entry.number } } },
      }),
    );
    record = core.store.phoneNumbers.findOne("number", entry.number)!;
  }
  const base = `/2010-04-01/Accounts/${accountSid}/IncomingPhoneNumbers`;
  if (record.account_sid === null) {
    await must(
      `assigning ${entry.number}`,
      api.request("POST", `${base}.json`, { auth: carrier, form: { PhoneNumber: entry.number, ...form } }),
    );
  } else if (Object.keys(form).length > 0) {
    await must(
      `setting the handlers of ${entry.number}`,
      api.request("POST", `${base}/${record.sid}.json`, { auth: carrier, form }),
    );
  }
}

export async function setUpWorld(
  core: PlayedSandbox,
  api: ApiClient,
  host: HandlerHost,
  scenario: Scenario,
): Promise<World> {
  const accountSid = scenarioAccount(core, scenario);
  const accountPath = `/carrier/v1/accounts/${accountSid}`;
  const setup = scenario.account;
  const attributes: Record<string, unknown> = {};
  if (setup?.default_tts_voice) attributes.default_tts_voice = setup.default_tts_voice;
  if (setup?.stt_provider) {
    const metadata = core.store.accounts.get(accountSid)!.metadata;
    attributes.metadata = { ...metadata, default_stt_provider: setup.stt_provider };
  }
  if (Object.keys(attributes).length > 0)
    await must(
      "updating the account",
      api.request("PATCH", accountPath, {
        auth: carrier,
        json: { data: { type: "account", id: accountSid, attributes } },
      }),
    );
  if (setup?.balance_cents !== undefined) {
    const balance = await must(
      "reading the balance",
      api.request("GET", `${accountPath}/balances`, { auth: carrier }),
    );
    const current = Number(
      (balance.json as { data: { attributes: { balance_cents?: number } } }).data.attributes.balance_cents ??
        0,
    );
    const difference = setup.balance_cents - current;
    if (difference !== 0)
      await must(
        "setting the balance",
        api.request("POST", `${accountPath}/balances/${difference > 0 ? "top_up" : "debit"}`, {
          auth: carrier,
          json: { category: "scenario", amount_cents: Math.abs(difference), description: "Scenario balance" },
        }),
      );
  }

  for (const entry of scenario.numbers) await setUpNumber(core, api, host, accountSid, entry);

  const agents = new Map<string, { sid: string; extension: string }>();
  for (const agent of scenario.agents) {
    const created = await must(
      `creating agent ${agent.name}`,
      api.request("POST", `${accountPath}/agent_extensions`, {
        auth: carrier,
        json: {
          data: {
            type: "agent_extension",
            attributes: {
              agent_name: agent.name,
              ...(agent.extension ? { extension: agent.extension } : {}),
            },
          },
        },
      }),
    );
    const data = (created.json as { data: { id: string; attributes: { extension: string } } }).data;
    if (agent.status && agent.status !== "online")
      await must(
        `setting agent ${agent.name} ${agent.status}`,
        api.request("PATCH", `${accountPath}/agent_extensions/${data.id}`, {
          auth: carrier,
          json: { data: { type: "agent_extension", id: data.id, attributes: { status: agent.status } } },
        }),
      );
    const entry = { sid: data.id, extension: data.attributes.extension };
    agents.set(agent.name, entry);
    agents.set(entry.extension, entry);
  }

  for (const group of scenario.ring_groups) {
    await must(
      `creating ring group ${group.name}`,
      api.request("POST", `${accountPath}/ring_groups`, {
        auth: carrier,
        json: {
          data: {
            type: "ring_group",
            attributes: {
              name: group.name,
              ...(group.strategy ? { strategy: group.strategy } : {}),
              ...(group.ring_timeout ? { ring_timeout: group.ring_timeout } : {}),
            },
            relationships: {
              agent_extensions: {
                data: group.members.map((m) => ({ type: "agent_extension", id: agents.get(m)!.sid })),
              },
            },
          },
        },
      }),
    );
  }

  for (const [number, { name: _name, ...behaviour }] of Object.entries(scenario.parties))
    core.calls.setParty(number, behaviour);
  for (const result of sttResults(scenario))
    if (result.calls === undefined) applySttResult(core, "*", result);

  // Suspension last: a suspended account's numbers and agents can no longer be changed by it.
  if (setup?.status)
    await must(
      `setting the account ${setup.status}`,
      api.request("PATCH", accountPath, {
        auth: carrier,
        json: { data: { type: "account", id: accountSid, attributes: { status: setup.status } } },
      }),
    );
  return { accountSid, agents };
}
