import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useInvalidatingMutation } from './invalidating-mutation';

function setUp() {
  const queryClient = new QueryClient();
  const invalidated: unknown[] = [];
  vi.spyOn(queryClient, 'invalidateQueries').mockImplementation(async (filters) => {
    invalidated.push(filters?.queryKey);
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return { invalidated, wrapper };
}

describe('useInvalidatingMutation', () => {
  it('invalidates the keys it names once the mutation succeeded, before mutateAsync resolves', async () => {
    const { invalidated, wrapper } = setUp();
    const { result } = renderHook(
      () =>
        useInvalidatingMutation(
          async (id: string) => `renamed ${id}`,
          [['keys'], ['teams', 'list']],
        ),
      { wrapper },
    );
    let answer: string | undefined;
    await act(async () => {
      answer = await result.current.mutateAsync('k-1');
    });
    expect(answer).toBe('renamed k-1');
    expect(invalidated).toEqual([['keys'], ['teams', 'list']]);
  });

  it('takes the keys from the answer and the variables, and invalidates nothing on failure', async () => {
    const { invalidated, wrapper } = setUp();
    const { result } = renderHook(
      () =>
        useInvalidatingMutation(
          async (id: string) => {
            if (id === 'nope') throw new Error('refused');
            return { webhookId: 'w-1' };
          },
          (data, id) => [['webhooks', data.webhookId, id]],
        ),
      { wrapper },
    );
    await act(async () => {
      await result.current.mutateAsync('d-1');
    });
    await act(async () => {
      await expect(result.current.mutateAsync('nope')).rejects.toThrow('refused');
    });
    expect(invalidated).toEqual([['webhooks', 'w-1', 'd-1']]);
  });
});
