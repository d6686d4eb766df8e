// Where a phone number is, as Twilio reports it on webhooks: City, State, Zip and Country, empty when unknown.
import type { Store } from "../../domain/store.js";
import { countryOf } from "./calling-codes.js";
import { nanpAreaCodes } from "./nanp-area-codes.js";

export interface NumberLocation {
  city: string;
  state: string;
  zip: string;
  country: string;
}

/** What the number itself says: the calling code, and for North American numbers the area code. */
export function derivedLocation(number: string): NumberLocation {
  const nanp = /^\+1(\d{3})\d{7}$/.exec(number);
  const entry = nanp ? nanpAreaCodes[nanp[1]!] : undefined;
  if (entry) return { city: entry[2], state: entry[1], zip: "", country: entry[0] };
  return { city: "", state: "", zip: "", country: countryOf(number) ?? "" };
}

/**
 * A number in the carrier inventory is where its own data puts it (region, locality, postal code,
 * country); a field it leaves blank falls back to what the number itself says.
 */
export function locateNumber(store: Store, number: string): NumberLocation {
  const derived = derivedLocation(number);
  const own = store.phoneNumbers.findOne("number", number);
  if (!own) return derived;
  const sameCountry = own.country === derived.country;
  return {
    city: own.locality ? own.locality.toUpperCase() : sameCountry ? derived.city : "",
    state: own.region ?? (sameCountry ? derived.state : ""),
    zip: own.postal_code ?? "",
    country: own.country,
  };
}

/** The four parameters under one prefix: From, To, Caller or Called. */
export function locationParams(prefix: string, location: NumberLocation): Record<string, string> {
  return {
    [`${prefix}City`]: location.city,
    [`${prefix}State`]: location.state,
    [`${prefix}Zip`]: location.zip,
    [`${prefix}Country`]: location.country,
  };
}
