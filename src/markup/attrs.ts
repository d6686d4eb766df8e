// Reading verb attributes with Twilio's defaults: numbers, booleans, methods and space-separated lists.
import type { MarkupNode } from "./parse.js";

export function intAttr(node: MarkupNode, name: string, fallback: number): number {
  const value = node.attrs[name];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : fallback;
}

export function boolAttr(node: MarkupNode, name: string, fallback: boolean): boolean {
  const value = node.attrs[name];
  return value === undefined ? fallback : value === "true";
}

export function methodAttr(node: MarkupNode, name = "method"): "GET" | "POST" {
  return node.attrs[name]?.toUpperCase() === "GET" ? "GET" : "POST";
}

export function listAttr(node: MarkupNode, name: string, fallback: string[]): string[] {
  const value = node.attrs[name];
  return value === undefined ? fallback : value.split(/[\s,]+/).filter(Boolean);
}

/** Twilio repeats loop="0" "indefinitely"; capped at 1000 as Somleng does, so a run always ends. */
export function loops(node: MarkupNode): number {
  const n = intAttr(node, "loop", 1);
  return n === 0 ? 1000 : n;
}
