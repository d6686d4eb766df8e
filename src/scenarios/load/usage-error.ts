// The error of a load run's bad options (the CLI's exit code 2).

/** Bad options or a scenario that cannot be played as a load (the CLI's exit code 2). */
export class LoadUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoadUsageError";
  }
}
