// Data that stays current: loaded once, then again whenever the live feed reports a change it cares about.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { feed } from "./api.js";

/**
 * `load` fetches the data; `wants(event, data)` says whether a feed event makes it stale.
 * Reloads are gathered (at most one every 150 ms) so a burst of changes costs one fetch.
 */
export function useLive(load, deps, wants) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const loadRef = useRef(load);
  loadRef.current = load;
  const wantsRef = useRef(wants);
  wantsRef.current = wants;

  // Loads may finish out of order (a filter changed while the last one was under way): only the newest one's
  // answer is shown, so an older answer never replaces what the page asks for now.
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    try {
      const data = await loadRef.current();
      if (mine === latest.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (mine === latest.current) setState((s) => ({ data: s.data, error, loading: false }));
    }
  }, []);

  useEffect(() => {
    setState({ data: null, error: null, loading: true });
    void reload();
    let timer = null;
    const unsubscribe = feed.subscribe((event, data) => {
      if (event !== "reset" && event !== "ready" && !wantsRef.current(event, data)) return;
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void reload();
      }, 150);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, deps);

  return { ...state, reload };
}

/** Feed filters: any change to these tables, or to rows naming this sid. */
export const tableChanged =
  (...tables) =>
  (event, data) =>
    event === "change" && data.tables.some((t) => tables.includes(t));
