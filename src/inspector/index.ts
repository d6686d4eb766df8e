// The inspector: a web page over a running sandbox (calls, messages, webhooks, requests, a phone, controls).
export { type ChangeFeed, createChangeFeed } from "./feed.js";
export { type InspectorListenOptions, type RunningInspector, startInspector } from "./listen.js";
export { inspectorPath } from "./paths.js";
export { createInspector, type Inspector, type InspectorOptions } from "./router.js";
