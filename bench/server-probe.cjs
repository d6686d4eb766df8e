// Loaded into a benchmark's server (`node --require bench/server-probe.cjs dist/server/cli.cjs serve ...`): answers
// "probe" over the IPC channel with the process's memory, its event loop's delays and its garbage collections
// since the last probe, and "heap-snapshot" by writing one. Nothing of the server's own code changes.
const { monitorEventLoopDelay, PerformanceObserver, constants } = require("node:perf_hooks");
const v8 = require("node:v8");

if (typeof process.send === "function") {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const emptyGc = () => ({ count: 0, totalMs: 0, maxMs: 0, major: 0, majorMs: 0, majorMaxMs: 0 });
  let gc = emptyGc();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major += 1;
        gc.majorMs += entry.duration;
        gc.majorMaxMs = Math.max(gc.majorMaxMs, entry.duration);
      }
    }
  }).observe({ entryTypes: ["gc"] });
  process.on("message", (message) => {
    if (message?.type === "probe") {
      if (message.collect && typeof globalThis.gc === "function") globalThis.gc();
      const memory = process.memoryUsage();
      process.send({
        type: "probe",
        memory,
        loop: {
          p50Ms: delay.percentile(50) / 1e6,
          p99Ms: delay.percentile(99) / 1e6,
          maxMs: delay.max / 1e6,
        },
        gc,
        spaces: v8.getHeapSpaceStatistics().map((space) => ({
          name: space.space_name,
          size: space.space_size,
          used: space.space_used_size,
        })),
      });
      delay.reset();
      gc = emptyGc();
    } else if (message?.type === "heap-snapshot") {
      process.send({ type: "heap-snapshot", file: v8.writeHeapSnapshot(message.path) });
    }
  });
  // The channel must not keep a server that was told to stop alive.
  process.channel?.unref();
}
