#!/usr/bin/env node
// The voice-sandbox command line's entry: turns on V8's compile cache where Node has one, then loads the program.
import module from "node:module";

// Node >= 22.1: compiled code is kept on disk (NODE_COMPILE_CACHE, else a folder under the system temp
// directory), so a second start skips most compiling. Older Nodes have no such call: nothing changes there.
// Only the command line does this: it is the whole process; a library must not change its host's settings.
const compileCache = module as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };
compileCache.enableCompileCache?.();
await import("./cli-program.js");
// The cache is written at exit; a server is often killed rather than stopped, so write it once it listens.
compileCache.flushCompileCache?.();
