// Rewrites the inspector's screenshots in docs/images/ (`npm run screenshots`): the browser tests that check
// each page take them once they have, in Debian's Chromium (/usr/bin/chromium, or VOICE_SANDBOX_CHROMIUM).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.VOICE_SANDBOX_CHROMIUM ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(`no Chromium at ${chromium}: apt-get install -y chromium, or set VOICE_SANDBOX_CHROMIUM`);
  process.exit(2);
}
const files = [
  "test/inspector/browser.test.ts",
  "test/inspector/turns-lane.test.ts",
  "test/inspector/browser-phone.test.ts",
];
const run = spawnSync("npx", ["vitest", "run", ...files], {
  stdio: "inherit",
  env: { ...process.env, VOICE_SANDBOX_SCREENSHOTS: "1" },
});
process.exit(run.status ?? 1);
