import type {
  ApiKeyResponse,
  InterruptCountsResponse,
  InterruptResponse,
  SignInSessionResponse,
} from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { anInterrupt, aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { GettingStarted } from './getting-started';

/** An organisation with these keys and interrupts (the newest open and answered, by status). */
function organisation({
  keys,
  open = null,
  answered = null,
  permissions = ['interrupt.read', 'interrupt.decide', 'apiKey.read', 'apiKey.create'],
}: {
  keys: number;
  open?: InterruptResponse | null;
  answered?: InterruptResponse | null;
  permissions?: SignInSessionResponse['permissions'];
}) {
  const key = { id: 'k', name: 'agent' } as ApiKeyResponse;
  const count = (found: InterruptResponse | null) => ({ count: found ? 1 : 0, capped: false });
  const counts: InterruptCountsResponse = {
    open: count(open),
    assignedToMe: count(null),
    escalated: count(null),
    answered: count(answered),
    waitingForMe: count(null),
    cap: 1000,
  };
  // Who reads what: the steps start from the inbox's counts, then read only what they need.
  const asked: string[] = [];
  server.use(
    http.get(`${API}/interrupts/counts`, () => {
      asked.push('counts');
      return HttpResponse.json(counts);
    }),
    http.get(`${API}/auth/session`, () => HttpResponse.json(aSignInSession(permissions))),
    http.get(`${API}/api-keys`, () => {
      asked.push('keys');
      return HttpResponse.json({ apiKeys: Array(keys).fill(key) });
    }),
    http.get(`${API}/interrupts`, ({ request }) => {
      const status = new URL(request.url).searchParams.get('status');
      asked.push(`interrupts ${status}`);
      const found = status === 'open' ? open : status === 'answered' ? answered : null;
      return HttpResponse.json({ interrupts: found ? [found] : [], nextCursor: null });
    }),
  );
  return asked;
}

const steps = async () => {
  const region = await screen.findByRole('region', { name: 'Welcome to Interlock' });
  return {
    region,
    current: within(region)
      .getAllByRole('listitem')
      .findIndex((li) => li.getAttribute('aria-current') === 'step'),
  };
};

describe('GettingStarted', () => {
  beforeEach(() => localStorage.clear());

  it('asks for a key first, pointing to where keys are made', async () => {
    organisation({ keys: 0 });
    renderWithApp(<GettingStarted here="inbox" />);
    const { region, current } = await steps();
    expect(current).toBe(0);
    expect(within(region).getByRole('link', { name: 'Integrations → Api Keys' })).toHaveAttribute(
      'href',
      '/integrations/api-keys?welcome=1',
    );
  });

  it('moves on to running the agent once a key exists, with what the page passes', async () => {
    organisation({ keys: 1 });
    renderWithApp(
      <GettingStarted here="api-keys">
        <p>the snippet</p>
      </GettingStarted>,
    );
    const { region, current } = await steps();
    expect(current).toBe(1);
    expect(region.querySelectorAll('[data-step-done]')).toHaveLength(1);
    expect(within(region).getByText('the snippet')).toBeInTheDocument();
  });

  it('once the first interrupt arrived: decide it here', async () => {
    const asked = organisation({
      keys: 1,
      open: anInterrupt({ id: 'i-1', title: 'Send the refund?' }),
    });
    renderWithApp(<GettingStarted here="inbox" />);
    const { region, current } = await steps();
    expect(current).toBe(2);
    // The counts said some are open and none answered: the newest open is read, not the keys.
    expect(asked).toEqual(['counts', 'interrupts open']);
    expect(region).toHaveTextContent('Your first interrupt arrived: “Send the refund?”.');
    expect(within(region).getByRole('link', { name: 'Decide it here' })).toHaveAttribute(
      'href',
      '/interrupts/i-1',
    );
  });

  it('is not shown to a member who may not take its steps (a Manager: no key creation)', async () => {
    // The Manager reads keys and interrupts but may not create a key: "Create API key" is not
    // theirs to press. Nor a member who may create keys but not decide.
    for (const permissions of [
      ['interrupt.read', 'interrupt.decide', 'apiKey.read'],
      ['interrupt.read', 'apiKey.read', 'apiKey.create'],
    ] as SignInSessionResponse['permissions'][]) {
      organisation({ keys: 0, permissions });
      const { unmount, queryClient } = renderWithApp(<GettingStarted here="inbox" force />);
      await waitFor(() => expect(queryClient.getQueryData(['auth', 'session'])).toBeTruthy());
      await waitFor(() => expect(queryClient.isFetching()).toBe(0));
      expect(screen.queryByRole('region', { name: 'Welcome to Interlock' })).toBeNull();
      unmount();
    }
  });

  it('is gone once an interrupt was answered, and after a dismissal', async () => {
    const asked = organisation({ keys: 1, answered: anInterrupt({ status: 'answered' }) });
    const { unmount, queryClient } = renderWithApp(<GettingStarted here="inbox" />);
    // Once the counts are in (one answered), nothing is shown, and nothing more is read.
    await waitFor(() => expect(queryClient.getQueryData(['interrupts', 'counts'])).toBeTruthy());
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('region', { name: 'Welcome to Interlock' })).toBeNull();
    expect(asked).toEqual(['counts']);
    unmount();

    const readBeforeDismissal = organisation({ keys: 0 });
    const dismissed = vi.fn();
    const again = renderWithApp(<GettingStarted here="inbox" onDismiss={dismissed} />);
    await steps();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss the welcome' }));
    expect(dismissed).toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'Welcome to Interlock' })).toBeNull();
    again.unmount();
    expect(readBeforeDismissal).toEqual(['counts', 'keys']);
    const readAfter = organisation({ keys: 0 });
    const third = renderWithApp(<GettingStarted here="inbox" />);
    // Remembered for this organisation: nothing shown and nothing read; `force` (the welcome
    // after sign-up) shows it anyway.
    await waitFor(() => expect(third.queryClient.getQueryData(['auth', 'session'])).toBeTruthy());
    await waitFor(() => expect(third.queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('region', { name: 'Welcome to Interlock' })).toBeNull();
    expect(readAfter).toEqual([]);
    third.unmount();
    renderWithApp(<GettingStarted here="inbox" force />);
    expect(await screen.findByRole('region', { name: 'Welcome to Interlock' })).toBeInTheDocument();
  });
});
