// Where the inspector lives on a sandbox server.
export const inspectorPath = "/__sandbox/ui";
export const inspectorApiPath = `${inspectorPath}/api`;
export const inspectorFeedPath = `${inspectorApiPath}/feed`;
/** Sent by the inspector's page with each request: the server logs the page's own reads at debug, not info. */
export const inspectorClientHeader = "x-voice-sandbox-client";
