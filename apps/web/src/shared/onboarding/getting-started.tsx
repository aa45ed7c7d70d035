import { Alert, Anchor, Button, Group, List, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useStoredValue } from '@/shared/preferences/stored-value';
import { useSignInSession } from '@/shared/sign-in/sign-in-session.queries';
import { type GettingStartedStep, useGettingStarted } from './onboarding.queries';

const ORDER = ['key', 'agent', 'decide'] as const;

/** The dismissal, per organisation and browser. */
function useDismissed(): [boolean, () => void] {
  const { data } = useSignInSession();
  const [dismissed, setDismissed] = useStoredValue(
    `interlock.gettingStarted.dismissed.${data?.organisation.id ?? 'none'}`,
    false,
  );
  return [dismissed, () => setDismissed(true)];
}

/**
 * The welcome of a new organisation (issue 31 §7): three steps — create an API key, run the agent,
 * decide its first interrupt — that move on by themselves as the key is created and the first
 * interrupt arrives ("decide it here", linked), and go away once an interrupt is answered or the
 * member dismisses them. `here` says which page shows it, so a step done on that page says so.
 * `force` shows it even after a dismissal (the welcome right after sign-up).
 */
export function GettingStarted({
  here,
  force = false,
  onDismiss,
  children,
}: {
  here: 'api-keys' | 'inbox';
  force?: boolean;
  /** Also called when the member dismisses it. */
  onDismiss?: () => void;
  /** Shown under the steps while the agent step is current (e.g. the snippet). */
  children?: ReactNode;
}) {
  const [dismissed, dismiss] = useDismissed();
  const state = useGettingStarted(force || !dismissed);
  if (state === undefined || state.step === 'done') return null;
  const current = ORDER.indexOf(state.step);
  return (
    <Alert
      color="blue"
      variant="light"
      title="Welcome to Interlock"
      mb="lg"
      withCloseButton
      closeButtonLabel="Dismiss the welcome"
      onClose={() => {
        dismiss();
        onDismiss?.();
      }}
      role="region"
      data-getting-started={state.step}
    >
      <List spacing={6} size="sm" center>
        {ORDER.map((step, i) => (
          <List.Item
            key={step}
            icon={
              <ThemeIcon
                size={20}
                radius="xl"
                color={i < current ? 'teal' : i === current ? 'blue' : 'gray'}
                variant={i === current ? 'filled' : 'light'}
                aria-hidden
              >
                <Text size="xs" fw={700}>
                  {i < current ? '✓' : i + 1}
                </Text>
              </ThemeIcon>
            }
            aria-current={i === current ? 'step' : undefined}
            data-step-done={i < current ? '' : undefined}
          >
            <StepText step={step} state={state} here={here} current={i === current} />
          </List.Item>
        ))}
      </List>
      {state.step === 'agent' && children}
    </Alert>
  );
}

function StepText({
  step,
  state,
  here,
  current,
}: {
  step: (typeof ORDER)[number];
  state: GettingStartedStep;
  here: 'api-keys' | 'inbox';
  current: boolean;
}) {
  switch (step) {
    case 'key':
      return (
        <Text size="sm" fw={current ? 600 : undefined}>
          Create an API key for your agent
          {current &&
            (here === 'api-keys' ? (
              <> with “Create API key” above.</>
            ) : (
              <>
                {' '}
                in{' '}
                <Anchor component={Link} to="/integrations/api-keys?welcome=1" size="sm">
                  Integrations → Api Keys
                </Anchor>
                .
              </>
            ))}
        </Text>
      );
    case 'agent':
      return (
        <Text size="sm" fw={current ? 600 : undefined}>
          Run your agent with the key: it opens an interrupt and waits for your decision
          {current &&
            (here === 'api-keys' ? (
              <> (the lines below).</>
            ) : (
              <> (the lines below; the install commands are on Integrations → Api Keys).</>
            ))}
        </Text>
      );
    case 'decide':
      return state.step === 'decide' ? (
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            Your first interrupt arrived: “{state.interrupt.title}”.
          </Text>
          <Button
            component={Link}
            to={`/interrupts/${state.interrupt.id}`}
            size="compact-sm"
            data-getting-started-decide=""
          >
            Decide it here
          </Button>
        </Group>
      ) : (
        <Text size="sm">Decide the interrupt it opens, here in the inbox.</Text>
      );
  }
}
