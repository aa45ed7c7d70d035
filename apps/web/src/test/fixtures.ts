import type {
  ActionRequestResponse,
  ClassificationRuleListItem,
  InterruptHistoryEntry,
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
    openedBy: {
      type: 'api_key',
      id: '5f0e7c1e-3333-4c1e-9a4e-0a0a0a0a0a09',
      name: 'billing-agent',
    },
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
    signedInWith: 'password',
  };
}

/** A classification rule as GET /api/classification/rules lists it (approve small refunds, enforced). */
export function aRule(
  overrides: Partial<ClassificationRuleListItem> = {},
): ClassificationRuleListItem {
  return {
    id: '7a1d0c55-3333-4c1e-9a4e-0a0a0a0a0a03',
    name: 'Small refunds',
    mode: 'enforce',
    priority: 100,
    match: { actions: ['refund'], args: [{ path: 'amount', op: 'lte', value: 100 }] },
    outcome: { type: 'approve' },
    origin: 'member',
    originInterruptId: null,
    paused: null,
    expiresAt: null,
    createdAt: '2026-11-26T18:00:00.000Z',
    updatedAt: '2026-11-26T18:00:00.000Z',
    stats: {
      shadow: { matched: 0, wouldDecide: 0, decidedByPeople: 0, agreed: 0 },
      enforce: { matched: 0, decided: 0 },
      lastMatchedAt: null,
    },
    ...overrides,
  };
}

let historyIds = 0;

/** One audit entry of an interrupt's history (`include=history`), written by argus unless told. */
export function aHistoryEntry(
  action: string,
  metadata: InterruptHistoryEntry['metadata'],
  overrides: Partial<InterruptHistoryEntry> = {},
): InterruptHistoryEntry {
  return {
    id: `entry-${++historyIds}`,
    action,
    actorType: 'argus',
    actorId: null,
    actorName: 'argus',
    createdAt: '2026-11-26T19:00:00.100Z',
    summary: action,
    metadata,
    ...overrides,
  };
}
