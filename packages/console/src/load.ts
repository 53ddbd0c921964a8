// One request per panel: a panel loads its data with one API call and shows it, a failure, or
// that it is loading; `reload` asks again after a change.
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "./api";

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: ApiError | undefined;
  readonly loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setState((before) => ({ ...before, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) =>
        current &&
        setState({ error: error instanceof ApiError ? error : new ApiError(0, undefined), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
