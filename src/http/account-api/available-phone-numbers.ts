// AvailablePhoneNumbers: searching the carrier's public, available inventory by country, type and Twilio's filters.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { formatNumber, type PhoneNumber } from "../../domain/phone-number.js";
import { twilioJson } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { formBoolean } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";

/** Twilio's path segment for each inventory number type, and its key in a country's subresource_uris. */
const numberTypes = [
  { path: "Local", key: "local", type: "local" },
  { path: "TollFree", key: "toll_free", type: "toll_free" },
  { path: "Mobile", key: "mobile", type: "mobile" },
] as const;

const countryNames: Record<string, string> = {
  US: "United States",
  CA: "Canada",
  GB: "United Kingdom",
  KH: "Cambodia",
  AU: "Australia",
  DE: "Germany",
  FR: "France",
  JP: "Japan",
  IN: "India",
  MX: "Mexico",
  BR: "Brazil",
};

/** Twilio's available number (`..available_phone_number_local`, the same for toll-free and mobile). */
export const availablePhoneNumberResource = z.lazy(() =>
  z.object({
    friendly_name: z.string(),
    phone_number: z.string(),
    lata: z.string().nullable(),
    locality: z.string().nullable(),
    rate_center: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    region: z.string().nullable(),
    postal_code: z.string().nullable(),
    iso_country: z.string(),
    address_requirements: z.string(),
    beta: z.boolean(),
    capabilities: z.object({ voice: z.boolean(), SMS: z.boolean(), MMS: z.boolean(), fax: z.boolean() }),
  }),
);

export const availableCountryResource = z.lazy(() =>
  z.object({
    country_code: z.string(),
    country: z.string(),
    uri: z.string(),
    beta: z.boolean(),
    subresource_uris: z.record(z.string(), z.string()),
  }),
);

export function renderAvailableNumber(number: PhoneNumber): z.infer<typeof availablePhoneNumberResource> {
  return {
    friendly_name: formatNumber(number.number),
    phone_number: number.number,
    lata: number.lata,
    locality: number.locality,
    rate_center: number.rate_center,
    latitude: number.latitude,
    longitude: number.longitude,
    region: number.region,
    postal_code: number.postal_code,
    iso_country: number.country,
    address_requirements: "none",
    beta: false,
    // The live API spells these SMS and MMS for available numbers (lower case on incoming numbers).
    capabilities: { voice: true, SMS: true, MMS: true, fax: false },
  };
}

/** Public inventory of a country, any status: a country the carrier has never stocked is a 404. */
const stockOf = (services: RouteServices, country: string) =>
  services.context.store.phoneNumbers.where("country", country).filter((n) => n.visibility === "public");
const availableOf = (services: RouteServices, country: string) =>
  stockOf(services, country).filter((n) => n.status === "available");

function renderCountry(accountSid: string, country: string, numbers: PhoneNumber[]) {
  const base = accountPath(accountSid, `AvailablePhoneNumbers/${country}`);
  const types = numberTypes.filter((t) => numbers.some((n) => n.number_type === t.type));
  return {
    country_code: country,
    country: countryNames[country] ?? country,
    uri: `${base}.json`,
    beta: false,
    subresource_uris: Object.fromEntries(types.map((t) => [t.key, `${base}/${t.path}.json`])),
  };
}

/** Letters dial as their keypad digits in Twilio's Contains patterns (e.g. "STORM"). */
const keypad: Record<string, string> = Object.fromEntries(
  ["ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ"].flatMap((letters, i) =>
    [...letters].map((letter) => [letter, String(i + 2)]),
  ),
);

/** Twilio's Contains: digits and letters, `*` for any one digit; matched anywhere in the number's digits. */
function containsMatcher(pattern: string): (e164: string) => boolean {
  const source = [...pattern.toUpperCase()]
    .map((c) => (c === "*" ? "\\d" : /[0-9]/.test(c) ? c : (keypad[c] ?? "")))
    .join("");
  const regex = new RegExp(source);
  return (e164) => regex.test(e164.replace(/^\+/, ""));
}

/** Great-circle distance in miles (Twilio's Distance unit). */
function miles(a: [number, number], b: [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(h));
}

const searchQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    AreaCode: z
      .string()
      .regex(/^\d{3}$/, "must be a three-digit area code")
      .optional(),
    Contains: z
      .string()
      .regex(/^[0-9A-Za-z*]{1,16}$/, "must be 1 to 16 digits, letters or * (any one digit)")
      .optional(),
    SmsEnabled: formBoolean.optional(),
    MmsEnabled: formBoolean.optional(),
    VoiceEnabled: formBoolean.optional(),
    FaxEnabled: formBoolean.optional(),
    ExcludeAllAddressRequired: formBoolean.optional(),
    ExcludeLocalAddressRequired: formBoolean.optional(),
    ExcludeForeignAddressRequired: formBoolean.optional(),
    Beta: formBoolean.optional(),
    NearNumber: z.string().optional(),
    NearLatLong: z
      .string()
      .regex(/^-?\d+(\.\d+)?,\s*-?\d+(\.\d+)?$/, "must be latitude,longitude such as 37.77,-122.41")
      .optional(),
    Distance: z.coerce.number({ error: "must be a number of miles" }).int().min(0).max(500).optional(),
    InPostalCode: z.string().optional(),
    InRegion: z.string().optional(),
    InRateCenter: z.string().optional(),
    InLata: z.string().optional(),
    InLocality: z.string().optional(),
  }),
);
type SearchQuery = z.output<typeof searchQuery>;

const echoed = [
  "AreaCode",
  "Contains",
  "SmsEnabled",
  "MmsEnabled",
  "VoiceEnabled",
  "FaxEnabled",
  "NearNumber",
  "NearLatLong",
  "Distance",
  "InPostalCode",
  "InRegion",
  "InRateCenter",
  "InLata",
  "InLocality",
] as const;

function search(services: RouteServices, numbers: PhoneNumber[], query: SearchQuery): PhoneNumber[] {
  const same = (a: string | null, b: string | undefined) => !b || (a ?? "").toLowerCase() === b.toLowerCase();
  const contains = query.Contains ? containsMatcher(query.Contains) : () => true;
  let near: [number, number] | null = null;
  if (query.NearLatLong) {
    const [lat, long] = query.NearLatLong.split(",").map((v) => Number(v.trim()));
    near = [lat!, long!];
  } else if (query.NearNumber) {
    const anchor = services.context.store.phoneNumbers.findOne("number", query.NearNumber);
    if (!anchor || anchor.latitude === null || anchor.longitude === null) {
      throw errors.invalidParameter(
        "NearNumber",
        `NearNumber ${query.NearNumber} has no known location in the carrier inventory; use NearLatLong instead.`,
      );
    }
    near = [anchor.latitude, anchor.longitude];
  }
  const distance = query.Distance ?? 25;
  return numbers.filter((n) => {
    if (query.AreaCode && !n.number.startsWith(`+1${query.AreaCode}`)) return false;
    if (!contains(n.number)) return false;
    // Every inventory number has voice, SMS and MMS and no fax.
    if (query.FaxEnabled === true) return false;
    if (query.SmsEnabled === false || query.MmsEnabled === false || query.VoiceEnabled === false)
      return false;
    if (!same(n.postal_code, query.InPostalCode)) return false;
    if (!same(n.region, query.InRegion) || !same(n.locality, query.InLocality)) return false;
    if (!same(n.rate_center, query.InRateCenter) || !same(n.lata, query.InLata)) return false;
    if (near) {
      if (n.latitude === null || n.longitude === null) return false;
      if (miles(near, [n.latitude, n.longitude]) > distance) return false;
    }
    return true;
  });
}

const countryParam = (services: RouteServices, params: Record<string, string>, path: string) => {
  const country = params.CountryCode!.toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || stockOf(services, country).length === 0) throw errors.notFound(path);
  return country;
};

const scope = "incoming_phone_numbers_read" as const;

export const availablePhoneNumberRoutes = [
  defineRoute({
    method: "GET",
    path: `${accountBase}/AvailablePhoneNumbers`,
    surface: "account",
    summary: "Countries with numbers for sale",
    auth: { kind: "account", scope, carrier: "allowed" },
    query: z.lazy(() => z.object(pagingQuery)),
    response: z.lazy(() => z.object({ countries: z.array(availableCountryResource), uri: z.string() })),
    handle({ params, services }) {
      const accountSid = params.AccountSid!;
      const available = services.context.store.phoneNumbers
        .where("status", "available")
        .filter((n) => n.visibility === "public");
      const countries = [...new Set(available.map((n) => n.country))].sort();
      return twilioJson(200, {
        countries: countries.map((c) =>
          renderCountry(
            accountSid,
            c,
            available.filter((n) => n.country === c),
          ),
        ),
        uri: accountPath(accountSid, "AvailablePhoneNumbers.json"),
      });
    },
  }),
  defineRoute({
    method: "GET",
    path: `${accountBase}/AvailablePhoneNumbers/:CountryCode`,
    surface: "account",
    summary: "One country and the number types it has",
    auth: { kind: "account", scope, carrier: "allowed" },
    response: availableCountryResource,
    handle({ params, request, services }) {
      const country = countryParam(services, params, request.path);
      return twilioJson(200, renderCountry(params.AccountSid!, country, availableOf(services, country)));
    },
  }),
  ...numberTypes.map((numberType) =>
    defineRoute({
      method: "GET",
      path: `${accountBase}/AvailablePhoneNumbers/:CountryCode/${numberType.path}`,
      surface: "account",
      summary: `Search ${numberType.key.replace("_", "-")} numbers for sale in a country`,
      auth: { kind: "account", scope, carrier: "allowed" },
      query: searchQuery,
      response: z.lazy(() => listSchema("available_phone_numbers", availablePhoneNumberResource)),
      handle({ params, query, request, services }) {
        const country = countryParam(services, params, request.path);
        const numbers = availableOf(services, country).filter((n) => n.number_type === numberType.type);
        const records = search(services, numbers, query);
        const filters: [string, string][] = [];
        for (const key of echoed) {
          const value = query[key];
          if (value !== undefined) filters.push([key, String(value)]);
        }
        return twilioJson(
          200,
          listEnvelope({
            key: "available_phone_numbers",
            path: accountPath(params.AccountSid!, `AvailablePhoneNumbers/${country}/${numberType.path}.json`),
            filters,
            page: query,
            records,
            render: renderAvailableNumber,
            sidOf: (n) => n.sid,
          }),
        );
      },
    }),
  ),
];
