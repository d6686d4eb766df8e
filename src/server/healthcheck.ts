// The Docker HEALTHCHECK probe: asks /__sandbox/health on the port the server bound, exit 0 when it answers 2xx.
import { readFileSync } from "node:fs";

/** The bound port as `serve` wrote it (VOICE_SANDBOX_PORT_FILE), else the configured one, else the default. */
function port(): string {
  const file = process.env.VOICE_SANDBOX_PORT_FILE;
  if (file) {
    try {
      const written = readFileSync(file, "utf8").trim();
      if (/^\d+$/.test(written)) return written;
    } catch {
      // Not written yet: the server is still starting, so the configured port is the best guess.
    }
  }
  return process.env.VOICE_SANDBOX_PORT || "4010";
}

try {
  const response = await fetch(`http://127.0.0.1:${port()}/__sandbox/health`, {
    signal: AbortSignal.timeout(4000),
  });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
