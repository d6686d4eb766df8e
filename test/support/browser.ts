// A real browser for tests: Debian's Chromium driven by playwright-core, one launch per test file, or a reason why none runs.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const chromiumPath = process.env.VOICE_SANDBOX_CHROMIUM ?? "/usr/bin/chromium";

/** Why the browser tests cannot run here, or null when they can. */
export const noBrowserReason = existsSync(chromiumPath)
  ? null
  : `no Chromium at ${chromiumPath} (apt-get install -y chromium, or set VOICE_SANDBOX_CHROMIUM)`;

export interface LaunchedBrowser {
  /** The browser's one context (its fresh profile); pages come from here. */
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Launches Chromium headless with a fresh profile and nothing that reaches the network by itself. `hosts` are
 * names resolved to 127.0.0.1 (a Compose service's name, say), so a page can be opened under them. `args` are
 * more switches (fake media devices, say: `--use-fake-device-for-media-stream`).
 */
export async function launchBrowser(
  options: { hosts?: readonly string[]; args?: readonly string[] } = {},
): Promise<LaunchedBrowser> {
  const hosts = options.hosts ?? [];
  const profile = await mkdtemp(join(tmpdir(), "voice-sandbox-chromium-"));
  // Playwright takes the profile folder itself (as --user-data-dir) for a persistent context.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1100, height: 720 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...(hosts.length > 0
        ? [`--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1`).join(",")}`]
        : []),
      ...(options.args ?? []),
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
