/**
 * What to do once a mutation started with `mutateAsync()` settles — even when the component that
 * started it has unmounted by then. TanStack Query drops the callbacks given to `mutate()` if
 * their component unmounts first, and a success often unmounts it: the refreshed list no longer
 * holds the row, the decided action replaces its form, the page moves on. (Browser tests failed
 * at random on exactly that.) An error needs no handler unless one is given: it shows through the
 * mutation's `error`.
 */
export function whenSettled<T>(
  result: Promise<T>,
  onSuccess: (value: T) => void,
  onError: (error: unknown) => void = () => undefined,
): void {
  result.then(onSuccess, onError);
}
