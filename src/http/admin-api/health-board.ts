// What health reports besides "ok": problems a part of the sandbox declares (a data directory that refuses writes) until it clears them.

export interface HealthProblem {
  component: string;
  message: string;
}

export interface HealthBoard {
  /** Declares `component` degraded with `message`, or healthy again with null. */
  report(component: string, message: string | null): void;
  problems(): HealthProblem[];
}

export function createHealthBoard(): HealthBoard {
  const problems = new Map<string, string>();
  return {
    report(component, message) {
      if (message === null) problems.delete(component);
      else problems.set(component, message);
    },
    problems: () => [...problems].map(([component, message]) => ({ component, message })),
  };
}
