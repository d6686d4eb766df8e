// The server's Node flags: `npm start` and the Docker image give Node the same ones, as the benchmarks read them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startScriptNodeFlags } from "../../bench/lib.js";

describe("Node flags of the shipped server", () => {
  it("are the same in npm start and in the Docker image's NODE_OPTIONS", () => {
    const dockerfile = readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8");
    const nodeOptions = /NODE_OPTIONS=("[^"]*"|\S+)/.exec(dockerfile)?.[1]?.replace(/^"|"$/g, "");
    expect(startScriptNodeFlags()).toEqual(["--max-semi-space-size=32"]);
    expect(nodeOptions?.split(/\s+/)).toEqual(startScriptNodeFlags());
  });
});
