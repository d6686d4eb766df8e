// axe-core in a page: the serious and critical accessibility violations found, as short lines.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected into the page as a global.
    const axe = (window as any).axe;
    const found = await axe.run(document, { resultTypes: ["violations"] });
    return found.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 3),
    }));
  });
  return (results as { id: string; impact: string; targets: string[] }[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(", ")}`);
}
