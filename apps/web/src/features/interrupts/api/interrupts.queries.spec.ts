import { QueryClient } from '@tanstack/react-query';
import { anInterrupt } from '@/test/fixtures';
import { interruptKeys, nextOpenInterrupt } from './interrupts.queries';

describe('nextOpenInterrupt', () => {
  const current = anInterrupt({ id: '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c01', status: 'answered' });
  const next = anInterrupt({ id: '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c02', title: 'Next one' });

  it('takes the next open interrupt from the inbox pages, past the welcome’s one-row read under the same key', async () => {
    const queryClient = new QueryClient();
    // The welcome's newest open interrupt (shared/onboarding) is one row, not pages; it is cached
    // first here, as it is when the inbox was the page before.
    queryClient.setQueryData(['interrupts', 'list', { onboarding: 'open' }], next);
    queryClient.setQueryData(['interrupts', 'list', { onboarding: 'none' }], null);
    queryClient.setQueryData(interruptKeys.list({ status: 'open' }), {
      pages: [{ interrupts: [current, next], nextCursor: null }],
      pageParams: [null],
    });
    await expect(nextOpenInterrupt(queryClient, current.id)).resolves.toMatchObject({
      id: next.id,
      title: 'Next one',
    });
  });
});
