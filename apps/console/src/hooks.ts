import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api/errors';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
  reload(): void;
}

/** Runs `load` now and on `reload()`, whenever `deps` change; the latest answer wins. */
export const useLoad = <T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> => {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    load().then(
      (value) => {
        if (call !== latest.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (call !== latest.current) return;
        setError(messageOf(failure));
        setLoading(false);
      },
    );
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, error, loading, reload };
};

export const messageOf = (failure: unknown): string =>
  failure instanceof ApiError || failure instanceof Error ? failure.message : String(failure);

export interface Action {
  readonly busy: boolean;
  readonly error: string | undefined;
  run(work: () => Promise<unknown>): Promise<boolean>;
  clear(): void;
}

/** A write the user started: busy while it runs, the API's words when it is refused. */
export const useAction = (): Action => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (failure) {
      setError(messageOf(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
};
