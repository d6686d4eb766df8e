// import() of a package the command line's bundle leaves out (an optional peer, or one needed only sometimes).

/**
 * Every `import()` of a package that is not bundled into the command line goes through here. The built
 * command line runs as one script through V8's code cache (`src/server/compiled-program.ts`), which has no
 * module loader of its own: its build puts the entry's `import()` in this function's place, and fails on
 * any other `import()` of an unbundled package (`scripts/build.mjs`).
 */
export const importPackage = (name: string): Promise<unknown> => import(name);
