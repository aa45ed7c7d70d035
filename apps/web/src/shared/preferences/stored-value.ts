import { useCallback, useSyncExternalStore } from 'react';

const CHANGED = 'interlock-stored-value';
/** Where values live when the browser refuses localStorage (private modes, policies): this tab only. */
const fallback = new Map<string, string>();

function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return fallback.get(key) ?? null;
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** `true` as `boolean`, `7` as `number`: what may be stored, not the literal default. */
type Widened<T> = T extends boolean ? boolean : T extends number ? number : string;

/**
 * A value of this browser's localStorage (JSON, as Mantine's `useLocalStorage` stored it, so
 * earlier choices stay), shared by every component that reads the key, in this tab and others.
 * Unlike Mantine's hook it only reads on load — nothing is written until the value is set — and a
 * stored value of another type than the default counts as absent.
 */
export function useStoredValue<T extends boolean | number | string>(
  key: string,
  defaultValue: T,
): [Widened<T>, (value: Widened<T>) => void] {
  const raw = useSyncExternalStore(subscribe, () => readRaw(key));
  let value = defaultValue as unknown as Widened<T>;
  if (raw !== null) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === typeof defaultValue) value = parsed as Widened<T>;
    } catch {
      // not JSON: the default
    }
  }
  const set = useCallback(
    (next: Widened<T>) => {
      const text = JSON.stringify(next);
      try {
        window.localStorage.setItem(key, text);
      } catch {
        fallback.set(key, text);
      }
      window.dispatchEvent(new Event(CHANGED));
    },
    [key],
  );
  return [value, set];
}
