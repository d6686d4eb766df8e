// Memory after forced collections (the scale benchmark runs with --expose-gc): the process's RSS and the V8 heap in use.
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const collect = () => {
  for (let i = 0; i < 3; i++) gc();
};

export const settleMemory = () => {
  collect();
  return process.memoryUsage().rss;
};

export const settleHeap = () => {
  collect();
  return process.memoryUsage().heapUsed;
};
