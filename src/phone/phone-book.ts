// The phones of one sandbox: a phone per number, inbound callers, and one verify() for everything unexpected.
import type { PartyBehaviourInput } from "../engine/calls/party-behaviour.js";
import { Phone, type PhoneOptions } from "./phone.js";
import type { PhoneCall } from "./phone-call.js";
import { createSandboxSurface } from "./sandbox-surface.js";
import { createPhoneTransport, type PhoneTransportOptions } from "./transport.js";

export interface PhoneBook {
  /** The simulated phone at `number` (the same object each time; options apply when it is first made). */
  phone(number: string, options?: PhoneOptions): Phone;
  /** An inbound call from `from` to one of the sandbox's numbers, driven like a phone's call. */
  call(input: { from: string; to: string }): PhoneCall;
  /** Fails on any call or text to a phone that no expectation claimed (phones that allow it aside). */
  verify(): Promise<void>;
  /** Drops every phone (after the sandbox's state is replaced: its calls, texts and parties are gone). */
  forget(): void;
}

export interface PhoneBookOptions extends PhoneTransportOptions {
  /** In-process only: sets a party at once (so a call placed right after finds it). */
  setParty?: ((number: string, behaviour: PartyBehaviourInput) => void) | undefined;
}

export function createPhoneBook(options: PhoneBookOptions): PhoneBook {
  const surface = createSandboxSurface(createPhoneTransport(options), { setParty: options.setParty });
  const phones = new Map<string, Phone>();
  const phone = (number: string, phoneOptions: PhoneOptions = {}) => {
    let found = phones.get(number);
    if (!found) {
      found = new Phone(surface, number, phoneOptions);
      phones.set(number, found);
    }
    return found;
  };
  return {
    phone,
    call: ({ from, to }) => phone(from).call(to),
    async verify() {
      for (const p of phones.values()) await p.verify();
    },
    forget() {
      phones.clear();
    },
  };
}

/**
 * Phones for a standalone server (its clock virtual), through its admin and carrier APIs:
 * `const phones = connectPhones({ url: "http://127.0.0.1:4010", carrierKey })`. A phone's party is set
 * by a request there: `await phone` before the app dials it.
 */
export function connectPhones(options: PhoneTransportOptions): PhoneBook {
  return createPhoneBook(options);
}
