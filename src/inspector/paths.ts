// Where the inspector lives on a sandbox server.
export const inspectorPath = "/__sandbox/ui";
export const inspectorApiPath = `${inspectorPath}/api`;
export const inspectorFeedPath = `${inspectorApiPath}/feed`;
