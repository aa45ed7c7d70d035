import { useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  List,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import QRCode from 'qrcode';
import type { TwoFactorSetupResponse } from '@interlock/api-client';
import { FormError } from '@/shared/components/form-error';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import {
  useConfirmTwoFactorSetup,
  useDisableTwoFactor,
  useMyTwoFactor,
  useRegenerateRecoveryCodes,
  useStartTwoFactorSetup,
} from '../api/account.queries';

/** A mutation's failure is shown by the form's FormError; nothing more to do with it. */
const failureShownInForm = () => undefined;

type Step =
  | { kind: 'idle' }
  | { kind: 'password'; then: 'setup' | 'new-codes' }
  | { kind: 'scan'; key: TwoFactorSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' };

/**
 * Settings → Security's two-factor sign-in (SPEC §8f): set up with an authenticator app (a QR
 * code, or the key typed in), confirmed by a code; the recovery codes shown once; new codes; off.
 */
export function TwoFactor() {
  const status = useMyTwoFactor();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const enabled = status.data?.enabled === true;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="two-factor-heading">
      <Stack gap="md">
        <Group gap="sm">
          <Title order={2} size="h4" id="two-factor-heading">
            Two-factor sign-in
          </Title>
          {status.data !== undefined &&
            (enabled ? (
              <Badge color="green" variant="light">
                On
              </Badge>
            ) : (
              <Badge color="gray" variant="light">
                Off
              </Badge>
            ))}
        </Group>
        {status.error !== null && <QueryError error={status.error} />}
        {step.kind === 'idle' && status.data !== undefined && (
          <>
            {enabled ? (
              <Text size="sm">
                Signing in asks for a code from your authenticator app (on since{' '}
                <RelativeTime value={status.data.enabledAt as string} />
                ). {status.data.recoveryCodesLeft} of 10 recovery codes left.
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                Besides your password, signing in asks for a 6-digit code from an authenticator app
                on your phone (1Password, Google Authenticator, Authy…).
              </Text>
            )}
            <Group>
              {enabled ? (
                <>
                  <Button
                    variant="light"
                    onClick={() => setStep({ kind: 'password', then: 'new-codes' })}
                  >
                    New recovery codes
                  </Button>
                  <Button variant="light" color="red" onClick={() => setStep({ kind: 'disable' })}>
                    Turn off
                  </Button>
                </>
              ) : (
                <Button onClick={() => setStep({ kind: 'password', then: 'setup' })}>
                  Set up two-factor sign-in
                </Button>
              )}
            </Group>
          </>
        )}
        {step.kind === 'password' && (
          <PasswordStep
            then={step.then}
            onKey={(key) => setStep({ kind: 'scan', key })}
            onCodes={(codes) => setStep({ kind: 'codes', codes })}
            onCancel={() => setStep({ kind: 'idle' })}
          />
        )}
        {step.kind === 'scan' && (
          <ScanStep
            setup={step.key}
            onCodes={(codes) => setStep({ kind: 'codes', codes })}
            onCancel={() => setStep({ kind: 'idle' })}
          />
        )}
        {step.kind === 'codes' && (
          <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />
        )}
        {step.kind === 'disable' && <DisableStep onDone={() => setStep({ kind: 'idle' })} />}
      </Stack>
    </Paper>
  );
}

function PasswordStep(props: {
  then: 'setup' | 'new-codes';
  onKey: (key: TwoFactorSetupResponse) => void;
  onCodes: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const start = useStartTwoFactorSetup();
  const regenerate = useRegenerateRecoveryCodes();
  const pending = props.then === 'setup' ? start : regenerate;
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (v) => (v === '' ? 'Enter your current password' : null) },
  });
  return (
    <form
      onSubmit={form.onSubmit(({ password }) => {
        if (props.then === 'setup')
          void start.mutateAsync(password).then(props.onKey, failureShownInForm);
        else
          void regenerate
            .mutateAsync(password)
            .then((r) => props.onCodes(r.recoveryCodes), failureShownInForm);
      })}
    >
      <Stack gap="sm">
        <Text size="sm">
          {props.then === 'setup'
            ? 'Confirm it is you: enter your password to set up two-factor sign-in.'
            : 'Enter your password to make 10 new recovery codes. The ones you have stop working.'}
        </Text>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <StepActions mutation={pending} submit="Continue" onCancel={props.onCancel} />
      </Stack>
    </form>
  );
}

function ScanStep(props: {
  setup: TwoFactorSetupResponse;
  onCodes: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmTwoFactorSetup();
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(props.setup.otpauthUri, { type: 'svg', margin: 1 }).then((svg) => {
      if (live) setQr(`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [props.setup.otpauthUri]);
  const form = useForm({
    initialValues: { code: '' },
    validate: {
      code: (v) => (/^\d{6}$/.test(v.replace(/\s/g, '')) ? null : 'Enter the 6-digit code'),
    },
  });
  return (
    <form
      onSubmit={form.onSubmit(({ code }) => {
        void confirm
          .mutateAsync(code.replace(/\s/g, ''))
          .then((r) => props.onCodes(r.recoveryCodes), failureShownInForm);
      })}
    >
      <Stack gap="sm">
        <Text size="sm">
          1. Scan this QR code with your authenticator app, or type the key into it.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {qr !== null && (
            <Image src={qr} alt="QR code of your new two-factor key" w={200} h={200} bg="white" />
          )}
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Key
            </Text>
            <Code aria-label="Two-factor key" style={{ overflowWrap: 'anywhere' }}>
              {props.setup.secret.replace(/(.{4})/g, '$1 ').trim()}
            </Code>
            <CopyButton value={props.setup.secret}>
              {({ copied, copy }) => (
                <Button size="xs" variant="subtle" onClick={copy} w="fit-content">
                  {copied ? 'Copied' : 'Copy key'}
                </Button>
              )}
            </CopyButton>
            <Text size="xs" c="dimmed">
              Time-based (TOTP), 6 digits, every 30 seconds. This key is shown only now.
            </Text>
          </Stack>
        </SimpleGrid>
        <TextInput
          label="2. Enter the code the app shows"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          required
          w={200}
          {...form.getInputProps('code')}
        />
        <StepActions mutation={confirm} submit="Turn on" onCancel={props.onCancel} />
      </Stack>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Interlock recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <Stack gap="sm">
      <Alert color="green" variant="light" role="status" p="xs">
        Two-factor sign-in is on. Save these recovery codes somewhere safe: each signs you in once
        if you lose your phone. They are shown only now.
      </Alert>
      <List
        aria-label="Recovery codes"
        listStyleType="none"
        ff="monospace"
        style={{ columns: 2, maxWidth: 320 }}
      >
        {codes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button
          size="xs"
          variant="light"
          component="a"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="interlock-recovery-codes.txt"
        >
          Download
        </Button>
        <Button size="xs" onClick={onDone}>
          I have saved them
        </Button>
      </Group>
    </Stack>
  );
}

function DisableStep({ onDone }: { onDone: () => void }) {
  const disable = useDisableTwoFactor();
  const form = useForm({
    initialValues: { password: '', code: '' },
    validate: {
      password: (v) => (v === '' ? 'Enter your current password' : null),
      code: (v) => (v.trim() === '' ? 'Enter a code from your app, or a recovery code' : null),
    },
  });
  return (
    <form
      onSubmit={form.onSubmit((values) => {
        void disable
          .mutateAsync({ password: values.password, code: values.code.trim() })
          .then(onDone, failureShownInForm);
      })}
    >
      <Stack gap="sm">
        <Text size="sm">
          Turning it off lets anyone with your password sign in. Confirm with your password and a
          code from your app (or a recovery code).
        </Text>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <TextInput
          label="Code from your app, or a recovery code"
          autoComplete="one-time-code"
          required
          w={320}
          {...form.getInputProps('code')}
        />
        <StepActions
          mutation={disable}
          submit="Turn off two-factor sign-in"
          color="red"
          onCancel={onDone}
        />
      </Stack>
    </form>
  );
}

/** A step's failure (the API's message), its submit button and Cancel. */
function StepActions(props: {
  mutation: { error: unknown; isPending: boolean };
  submit: string;
  color?: string;
  onCancel: () => void;
}) {
  return (
    <>
      <FormError error={props.mutation.error} />
      <Group>
        <Button type="submit" color={props.color} loading={props.mutation.isPending}>
          {props.submit}
        </Button>
        <Button variant="subtle" onClick={props.onCancel}>
          Cancel
        </Button>
      </Group>
    </>
  );
}
