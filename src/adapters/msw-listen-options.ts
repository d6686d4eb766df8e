// Listen options that make an unmatched request fail the test under msw 2 and msw 3 alike (no msw import: library mode stays light).

/**
 * `server.listen(failOnUnhandled)`: msw 2 reads `onUnhandledRequest`, msw 3 renamed it `onUnhandledFrame`;
 * each ignores the other's key, so one value serves both. Typed as a named type (not a fresh literal) so it
 * is assignable to either version's listen options.
 */
export interface FailOnUnhandled {
  readonly onUnhandledRequest: "error";
  readonly onUnhandledFrame: "error";
}

export const failOnUnhandled: FailOnUnhandled = Object.freeze({
  onUnhandledRequest: "error",
  onUnhandledFrame: "error",
});
