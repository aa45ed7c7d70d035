import { createRequire } from 'node:module';

const requireFromHere = createRequire(__filename);

/**
 * A package that the default request path never uses, required by its first use rather than at
 * start: every package a process loads keeps its code and objects for the process's life (issue
 * 28: RSS). `load()` answers the same module every time; a package that fails to load fails its
 * first use, so what configuration decides (a URL, a port) is still checked at start by
 * `loadConfig`, never here.
 */
export function onFirstUse<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromHere(id) as T);
}
