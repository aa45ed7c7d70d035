import { whenSettled } from './when-settled';

describe('whenSettled', () => {
  it('calls onSuccess with the value', async () => {
    const seen: number[] = [];
    whenSettled(Promise.resolve(7), (value) => seen.push(value));
    await vi.waitFor(() => expect(seen).toEqual([7]));
  });

  it('calls onError with the error, and leaves no unhandled rejection without one', async () => {
    const errors: unknown[] = [];
    const failure = new Error('refused');
    whenSettled(
      Promise.reject(failure),
      () => errors.push('success'),
      (e) => errors.push(e),
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      whenSettled(Promise.reject(new Error('shown by the form')), () => errors.push('success'));
      await vi.waitFor(() => expect(errors).toEqual([failure]));
      // A macrotask later, Node would have reported an unhandled rejection.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
