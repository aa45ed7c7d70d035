import type {
  ActionRequestResponse,
  InterruptResponse,
  SignInSessionResponse,
} from '@interlock/api-client';

/** An open interrupt as the API returns it (InterruptResponse), with what a test overrides. */
export function anInterrupt(overrides: Partial<InterruptResponse> = {}): InterruptResponse {
  return {
    id: '0b9c6a52-5a3e-4e57-9d8e-4d2b6f2a1c01',
    title: 'Refund order #1042',
    description: null,
    status: 'open',
    actionRequests: [anAction()],
    decisions: [],
    answeredAt: null,
    assignee: null,
    createdAt: '2026-11-26T19:00:00.000Z',
    escalatedAt: null,
    escalationLevel: 0,
    escalationReason: null,
    expiresAt: null,
    externalId: null,
    metadata: null,
    sessionId: null,
    ...overrides,
  };
}

export function anAction(overrides: Partial<ActionRequestResponse> = {}): ActionRequestResponse {
  return {
    name: 'refund',
    description: null,
    args: { amount: 40, currency: 'EUR', order: '1042' },
    allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
    ...overrides,
  };
}

/** Ada, signed in to Acme as a developer who may read and decide interrupts. */
export function aSignInSession(
  permissions: SignInSessionResponse['permissions'] = ['interrupt.read', 'interrupt.decide'],
): SignInSessionResponse {
  return {
    member: {
      id: '5f0e7c1e-1111-4c1e-9a4e-0a0a0a0a0a01',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      roleId: 'developer',
      roleName: 'Developer',
    },
    organisation: { id: '5f0e7c1e-2222-4c1e-9a4e-0a0a0a0a0a02', name: 'Acme', plan: 'free' },
    permissions,
  };
}
