import type { ClassifierResponse, ClassifierTestResponse } from '@interlock/api-client';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  NumberInput,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { ConfirmButton } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import { SecretShownOnce } from '@/shared/components/secret-shown-once';
import {
  useClassifier,
  useDeleteClassifier,
  useRotateClassifierSecret,
  useSaveClassifier,
  useTestClassifier,
} from '../api/classification.queries';

const DEFAULT_TIMEOUT_MS = 2000;

/** The URL, time limit and switch; saved with PUT (a new classifier answers its secret). */
function ClassifierForm({
  current,
  onSaved,
  onCancel,
}: {
  current: ClassifierResponse | null;
  onSaved: (secret: string | undefined) => void;
  onCancel?: () => void;
}) {
  const save = useSaveClassifier();
  const [url, setUrl] = useState(current?.url ?? '');
  const [timeoutMs, setTimeoutMs] = useState<number | string>(
    current?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutateAsync({ url: url.trim(), timeoutMs: Number(timeoutMs), enabled }).then(
          (saved) => onSaved(saved.secret),
          () => undefined,
        );
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Endpoint URL"
          description="https; argus POSTs each new action request here, signed like a webhook."
          placeholder="https://risk.example.com/interlock/classify"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          required
        />
        <NumberInput
          label="Time limit (ms)"
          description="Past it the action goes to a person (100 to 10000)."
          min={100}
          max={10000}
          step={100}
          value={timeoutMs}
          onChange={setTimeoutMs}
        />
        <Switch
          label="Ask it about every new interrupt"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <FormError error={save.error} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {current === null ? 'Set up classifier' : 'Save classifier'}
          </Button>
          {onCancel !== undefined && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** What a test brought back, in words. */
function TestResult({ result }: { result: ClassifierTestResponse }) {
  if (!result.ok)
    return (
      <Alert color="red" variant="light" title="No usable answer" role="status">
        {result.error} A new interrupt would go to a person (after {result.classifierMs} ms).
      </Alert>
    );
  return (
    <Alert color="teal" variant="light" title={`Risk: ${result.risk}`} role="status">
      <Stack gap={4}>
        <Text size="sm">Answered in {result.classifierMs} ms.</Text>
        {result.labels.length > 0 && (
          <Group gap={4}>
            {result.labels.map((l) => (
              <Badge key={l} variant="light" size="sm">
                {l}
              </Badge>
            ))}
          </Group>
        )}
        {result.reasons.map((r) => (
          <Text key={r} size="sm">
            {r}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/**
 * Settings → Classification → External classifier (SPEC §8d): set it up, change it, switch it
 * off, rotate its secret, remove it, and try it on a sample action. The secret is shown once.
 */
export function ClassifierPanel({ canManage }: { canManage: boolean }) {
  const classifier = useClassifier();
  const rotate = useRotateClassifierSecret();
  const remove = useDeleteClassifier();
  const test = useTestClassifier();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const current = classifier.data?.classifier ?? null;
  return (
    <Paper withBorder p="md" aria-label="External classifier" component="section">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h5">
            External classifier
          </Title>
          {current !== null && (
            <Badge color={current.enabled ? 'teal' : 'gray'} variant="light">
              {current.enabled ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Your own service rates each new action&apos;s risk and labels; rules can match on them. If
          it does not answer in time, or answers something wrong, a person decides.
        </Text>
        <FormError error={classifier.error} />
        {secret !== null ? (
          <SecretShownOnce
            secret={secret}
            label="Signing secret of the classifier"
            note="Argus signs its requests to your classifier with it, as webhooks are signed."
            onDone={() => setSecret(null)}
          />
        ) : classifier.isSuccess && current === null ? (
          canManage ? (
            <ClassifierForm current={null} onSaved={(s) => setSecret(s ?? null)} />
          ) : (
            <Text size="sm">None is set up.</Text>
          )
        ) : current !== null && editing ? (
          <ClassifierForm
            current={current}
            onSaved={() => setEditing(false)}
            onCancel={() => setEditing(false)}
          />
        ) : current !== null ? (
          <Stack gap="xs">
            <Text size="sm">
              <Code>{current.url}</Code> · answers within {current.timeoutMs} ms
            </Text>
            {current.previousSecretExpiresAt !== null && (
              <Text size="xs" c="dimmed">
                The previous secret also signs until{' '}
                {new Date(current.previousSecretExpiresAt).toLocaleString()}.
              </Text>
            )}
            <FormError error={rotate.error ?? remove.error ?? test.error} />
            {test.data !== undefined && <TestResult result={test.data} />}
            {canManage && (
              <Group>
                <Button variant="default" onClick={() => setEditing(true)}>
                  Edit
                </Button>
                <Button variant="default" loading={test.isPending} onClick={() => test.mutate({})}>
                  Send a test
                </Button>
                <ConfirmButton
                  variant="default"
                  confirm={{
                    title: 'Rotate the signing secret?',
                    body: 'A new secret signs from now on; the current one keeps signing beside it for 24 hours.',
                    confirmLabel: 'Rotate secret',
                    danger: false,
                    onConfirm: () => rotate.mutateAsync().then((r) => setSecret(r.secret)),
                  }}
                >
                  Rotate secret
                </ConfirmButton>
                <ConfirmButton
                  color="red"
                  variant="light"
                  confirm={{
                    title: 'Remove the external classifier?',
                    body: 'Argus stops asking it; rules that match on risk or labels then match nothing.',
                    confirmLabel: 'Remove classifier',
                    onConfirm: () => remove.mutateAsync(),
                  }}
                >
                  Remove
                </ConfirmButton>
              </Group>
            )}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
