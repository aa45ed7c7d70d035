import type { ResumeDelivery } from '@interlock/api-client';
import { screen } from '@testing-library/react';
import { renderWithApp } from '@/test/render';
import { ResumeDeliveryPanel } from './resume-delivery-panel';

const AT = '2026-11-27T09:00:00.000Z';

function delivery(overrides: Partial<ResumeDelivery>): ResumeDelivery {
  return {
    status: 'waiting',
    attempts: 0,
    maxAttempts: 9,
    lastAttemptAt: null,
    lastResponseStatus: null,
    lastError: null,
    nextAttemptAt: null,
    finishedAt: null,
    ...overrides,
  };
}

const panel = () => screen.getByRole('region', { name: 'Resuming the agent' });

describe('ResumeDeliveryPanel', () => {
  it('shows nothing for an interrupt opened without a resumeUrl', () => {
    const { container } = renderWithApp(<ResumeDeliveryPanel resume={null} />);
    expect(container.querySelector('section')).toBeNull();
    renderWithApp(<ResumeDeliveryPanel resume={undefined} />);
    expect(screen.queryByRole('region', { name: 'Resuming the agent' })).toBeNull();
  });

  it('says an open interrupt waits for its decision, with no attempt yet', () => {
    renderWithApp(<ResumeDeliveryPanel resume={delivery({})} />);
    expect(panel()).toHaveTextContent(
      'WaitingWhen the interrupt is decided or expires, the service posts the result to the agent’s resume URL.',
    );
    expect(panel()).not.toHaveTextContent('Last attempt');
  });

  it('a failed attempt: retrying, the attempt count, what the endpoint answered and when the next try is', () => {
    renderWithApp(
      <ResumeDeliveryPanel
        resume={delivery({
          status: 'retrying',
          attempts: 1,
          lastAttemptAt: AT,
          lastResponseStatus: 500,
          lastError: 'The endpoint answered 500.',
          nextAttemptAt: '2026-11-27T09:00:05.000Z',
        })}
      />,
    );
    expect(screen.getByTestId('resume-status')).toHaveTextContent('Retrying');
    expect(panel()).toHaveTextContent('attempt 1 of 9 failed; it is tried again.');
    expect(panel()).toHaveTextContent(
      /Last attempt .+: the endpoint answered 500: The endpoint answered 500\./,
    );
    expect(panel()).toHaveTextContent(/Next attempt \S/);
    expect(panel().querySelectorAll('time')[1]).toHaveAttribute(
      'datetime',
      '2026-11-27T09:00:05.000Z',
    );
  });

  it('delivered: the agent received the result, on which attempt, and what the endpoint answered; no next try', () => {
    renderWithApp(
      <ResumeDeliveryPanel
        resume={delivery({
          status: 'delivered',
          attempts: 2,
          lastAttemptAt: AT,
          lastResponseStatus: 200,
          finishedAt: AT,
        })}
      />,
    );
    expect(screen.getByTestId('resume-status')).toHaveTextContent('Delivered');
    expect(panel()).toHaveTextContent('The agent received the result (attempt 2 of 9).');
    expect(panel()).toHaveTextContent(/Last attempt .+: the endpoint answered 200$/);
    expect(panel()).not.toHaveTextContent('Next attempt');
  });

  it('failed: not delivered after every attempt, and why (no answer at all)', () => {
    renderWithApp(
      <ResumeDeliveryPanel
        resume={delivery({
          status: 'failed',
          attempts: 9,
          lastAttemptAt: AT,
          lastError: 'The connection was refused.',
          finishedAt: AT,
        })}
      />,
    );
    expect(screen.getByTestId('resume-status')).toHaveTextContent('Failed');
    expect(panel()).toHaveTextContent(
      'Not delivered after 9 attempts: the agent was not resumed by the service.',
    );
    expect(panel()).toHaveTextContent(/: no answer: The connection was refused\.$/);
  });
});
