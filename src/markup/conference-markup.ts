// The call-control document an API-added conference participant runs: one <Dial><Conference> with its options.
import { XMLBuilder } from "fast-xml-parser";

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  suppressBooleanAttributes: false,
});

/** `<Response><Dial><Conference ...>name</Conference></Dial></Response>`, attributes and name escaped. */
export function conferenceMarkup(name: string, attributes: Record<string, string | undefined>): string {
  const conference: Record<string, string> = { "#text": name };
  for (const [attribute, value] of Object.entries(attributes)) {
    if (value !== undefined) conference[`@_${attribute}`] = value;
  }
  return builder.build({ Response: { Dial: { Conference: conference } } }) as string;
}
