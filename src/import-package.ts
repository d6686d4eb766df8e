// import() of a package named at run time (an optional peer, or one needed only sometimes), from this package's place.

/**
 * Every `import()` of a package by name goes through here. The built command line runs as one script
 * through V8's code cache (`src/server/compiled-program.ts`), which has no module loader of its own: its
 * build puts the entry's `import()` in this function's place (`scripts/build.mjs`).
 */
export const importPackage = (name: string): Promise<unknown> => import(name);
