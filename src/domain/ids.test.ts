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
});
