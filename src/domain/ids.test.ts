// Ids are Twilio-shaped and repeat exactly for the same seed.
import { describe, expect, it } from "vitest";
import { createIdGenerator } from "./ids.js";

describe("id generator", () => {
  it("mints prefix plus 32 lowercase hex digits", () => {
    expect(createIdGenerator(7).mint("CA")).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it("gives the same sequence for the same seed and another for another seed", () => {
    const run = (seed: number | string) => {
      const ids = createIdGenerator(seed);
      return [ids.mint("CA"), ids.mint("SM"), ids.secret()];
    };
    expect(run(42)).toEqual(run(42));
    expect(run("scenario")).toEqual(run("scenario"));
    expect(run(42)).not.toEqual(run(43));
  });

  it("resumes from a saved state", () => {
    const ids = createIdGenerator(1);
    ids.mint("CA");
    const state = ids.state();
    const next = ids.mint("CA");
    const other = createIdGenerator(99);
    other.setState(state);
    expect(other.mint("CA")).toBe(next);
  });

  it("mints the very ids of earlier releases for a seed, so saved scenarios and snapshots keep matching", () => {
    const run = (seed: number | string) => {
      const ids = createIdGenerator(seed);
      return [ids.mint("CA"), ids.mint("SM"), ids.secret(), ids.random(), ids.mint("EV"), ids.state()];
    };
    expect(run(1)).toEqual([
      "CA9190299ec1017b27e3af522f7d71fb05",
      "SM787816c2fbbe0c005a5c175a89063de1",
      "562235e3dbe0d00280cc56cec62ba268",
      0.6107860237825662,
      "EV742101f6447b3839bbae902eab3823df",
      [2214687772, 168964479, 2917229574, 4292050066],
    ]);
    expect(run("scenario")).toEqual([
      "CAaa83779f24897bc58f2f833627760afe",
      "SM747ab370a69d3558ab4ce8622decc7a6",
      "baa1be6bb1e573b6d440f636daa77d62",
      0.02152837347239256,
      "EV90edb28f0f65e1ad2fed712f01274b6a",
      [3173164870, 620003518, 2391290807, 1404817874],
    ]);
  });

  it("mints a numbered id from the words mint takes: its 16 random digits, then the serial, the generator left as mint leaves it", () => {
    const plain = createIdGenerator(5);
    const numbered = createIdGenerator(5);
    for (const serial of [0, 1, 255, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
      const id = plain.mint("EV");
      const withSerial = numbered.mintNumbered("EV", serial);
      expect(withSerial).toBe(`${id.slice(0, 18)}${serial.toString(16).padStart(16, "0")}`);
      expect(numbered.state()).toEqual(plain.state());
    }
    expect(numbered.mint("CA")).toBe(plain.mint("CA"));
  });

  it("keeps leading zeros in every 8-digit group", () => {
    const ids = createIdGenerator(1);
    for (let i = 0; i < 2000; i++) expect(ids.secret()).toMatch(/^[0-9a-f]{32}$/);
  });
});
