import type { ErrorCode } from '@interlock/domain';
import { ERROR_CODES, MAX_TIMEOUT_SECONDS } from '@interlock/domain';
import { MAX_RULES_PER_ORGANISATION } from '../classification/rule-engine';

const RULE_CAP = `the organisation holds its limit of ${MAX_RULES_PER_ORGANISATION.toLocaleString('en-GB')} classification rules`;

/** acceptInvitation's and joinInvitation's 400 (SPEC §8f). */
const FOREIGN_EMAIL_PROOF =
  "emailProof is not the one the invitation email's link carries for this invitation and address";

/** startTwoFactorSetup's and changeMyEmail's 403 (SPEC §8f). */
const UNVERIFIED_ADDRESS =
  "the server requires verified addresses (EMAIL_VERIFICATION) and the person's is not verified yet";

/**
 * What each operation answers beyond what its access declaration implies (openapi-document.ts
 * derives 400/401/402/403/404/413/415/429/500/503 from that): the error codes its service can
 * throw, and why. The contract test (schemathesis, in npm test) fails on any status the server
 * answers and this contract omits, so an omission here does not go unnoticed.
 */
export const OPERATION_ERRORS: Record<string, Partial<Record<ErrorCode, string>>> = {
  signIn: {
    INVALID_CREDENTIALS:
      'wrong email or password (the same answer, in the same time, for an email no account has)',
    TWO_FACTOR_REQUIRED:
      'the password was right and two-factor sign-in is on: send it again with `code` (SPEC §8f)',
    INVALID_TWO_FACTOR_CODE:
      'the code is wrong, already used (a code works once), or an already used recovery code; counted as a failed sign-in',
    RATE_LIMITED: 'too many failed sign-ins for this account or from this address (SPEC §8b)',
    SSO_REQUIRED:
      'the password (and code) were right, but every organisation of the person requires single sign-on and they are an Owner of none (SPEC §8f)',
  },
  signUp: {
    CONFLICT:
      'an account with this email already exists (SIGN_UP_CONFIRMATION=instant only; with link a taken address answers 202 like any other, SPEC §8f)',
    SIGNUP_CLOSED: 'self-service sign-up is turned off on this server',
    RATE_LIMITED: 'too many sign-ups for this email or from this address (SPEC §8b)',
  },
  completeSignUp: {
    INVALID_TOKEN:
      'the link was altered, is not one the service sent or expired (24 hours), or the address has an account now (the link was used)',
    SIGNUP_CLOSED: 'self-service sign-up is turned off on this server',
  },
  requestPasswordReset: {
    RATE_LIMITED:
      'too many reset requests from this address (SPEC §8f); never for the account asked about',
  },
  confirmPasswordReset: {
    INVALID_TOKEN:
      'the link was already used, expired (30 minutes), or is not one the service sent',
  },
  verifyEmail: {
    INVALID_TOKEN:
      'the link was already used, expired (24 hours), is not one the service sent, or was sent to an address the account no longer has',
  },
  changeMyEmail: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on, which does not change the account itself (SPEC §8f)',
    EMAIL_NOT_VERIFIED: UNVERIFIED_ADDRESS,
    WRONG_PASSWORD: 'password is not the current password (counted as a failed sign-in)',
    RATE_LIMITED:
      'too many failed sign-ins for this account, or too many account emails asked for by this person (SPEC §8f)',
  },
  confirmEmailChange: {
    INVALID_TOKEN:
      'the link was already used, expired (24 hours), was replaced by a later request or change, or is not one the service sent',
    CONFLICT: 'the new address got an account of its own meanwhile: nothing changed',
  },
  undoEmailChange: {
    INVALID_TOKEN: 'the link was already used, expired (7 days), or is not one the service sent',
    CONFLICT: 'the old address got an account of its own meanwhile: nothing changed',
  },
  resendEmailVerification: {
    CONFLICT: 'the address is verified already',
    RATE_LIMITED: 'too many verification emails asked for by this person (SPEC §8f)',
  },
  startTwoFactorSetup: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on, which does not change the account itself (SPEC §8f)',
    EMAIL_NOT_VERIFIED: UNVERIFIED_ADDRESS,
    WRONG_PASSWORD: 'password is not the current password (counted as a failed sign-in)',
    CONFLICT: 'two-factor sign-in is on already',
    RATE_LIMITED: 'too many failed sign-ins for this account or from this address (SPEC §8b)',
  },
  confirmTwoFactorSetup: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on, which does not change the account itself (SPEC §8f)',
    INVALID_TWO_FACTOR_CODE: "the code is not the app's current code for the new key",
    CONFLICT: 'no set-up was started, or two-factor sign-in is on already',
  },
  disableTwoFactor: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on, which does not change the account itself (SPEC §8f)',
    WRONG_PASSWORD: 'password is not the current password (counted as a failed sign-in)',
    INVALID_TWO_FACTOR_CODE:
      'the code is wrong or already used, or an already used recovery code (counted as a failed sign-in)',
    CONFLICT: 'two-factor sign-in is not on',
    RATE_LIMITED: 'too many failed sign-ins for this account or from this address (SPEC §8b)',
  },
  regenerateRecoveryCodes: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on, which does not change the account itself (SPEC §8f)',
    WRONG_PASSWORD: 'password is not the current password (counted as a failed sign-in)',
    CONFLICT: 'two-factor sign-in is not on',
    RATE_LIMITED: 'too many failed sign-ins for this account or from this address (SPEC §8b)',
  },
  changePassword: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on, which does not change the account itself (SPEC §8f)',
    WRONG_PASSWORD: 'currentPassword is not the current password',
    CONFLICT: 'the password was changed by another request meanwhile',
    RATE_LIMITED:
      'too many failed sign-ins (or wrong current passwords) for this account or from this address (SPEC §8b)',
  },
  endMyOtherSignInSessions: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on, which does not change the account itself (SPEC §8f)',
  },
  endMySignInSession: {
    FORBIDDEN:
      'the sign-in session was made by single sign-on and the session named is another one (SPEC §8f)',
  },
  startSingleSignOn: {
    SSO_NOT_CONFIGURED: "no organisation's single sign-on signs in the address's domain (SPEC §8f)",
    RATE_LIMITED: 'too many single sign-on starts from this address (SPEC §8b)',
  },
  finishSingleSignOn: {
    SSO_SIGN_IN_FAILED:
      "no flow cookie (or an expired one), the provider's error, a failed check of the answer (state, PKCE, the ID token's signature, issuer, audience, expiry, nonce), an address the provider did not verify or outside the allowed domains (SPEC §8f)",
    CONFLICT: 'a concurrent first sign-in made the account meanwhile',
  },
  putSingleSignOn: {
    SSO_DISCOVERY_FAILED: "the issuer's discovery document could not be read or is not valid",
    NOT_FOUND: 'defaultRoleId names no role of this organisation',
    CONFLICT:
      'a domain is one another organisation has verified, or the issuer or client id changes while single sign-on is required',
  },
  verifySingleSignOnDomain: {
    NOT_FOUND: 'no provider is connected, or domain is not one of its allowedDomains',
    CONFLICT: 'another organisation has verified this domain already',
    DOMAIN_NOT_VERIFIED:
      "no TXT record interlock-domain-verification=… at _interlock-challenge.<domain>, or one with another organisation's token (SPEC §8f)",
    SERVICE_UNAVAILABLE: 'the DNS resolver did not answer (SSO_DNS_SERVERS, SPEC §8f)',
    RATE_LIMITED:
      "the organisation's domain proofs that ask DNS for this window are spent (RATE_LIMIT_SSO_DOMAIN_VERIFY_REQUESTS, SPEC §8b)",
  },
  deleteSingleSignOn: { NOT_FOUND: 'no provider is connected' },
  putSingleSignOnRequirement: {
    NOT_FOUND: 'no provider is connected',
    CONFLICT:
      'turning it on before the provider has signed anyone in with its current issuer and client id (SPEC §8f)',
  },
  putTwoFactorRequirement: {
    FORBIDDEN: 'the member is not an Owner of the organisation (SPEC §8f)',
    CONFLICT:
      'turning it on while two-factor sign-in is off for the Owner doing it (their own requests would be refused)',
  },
  createInterrupt: { NOT_FOUND: 'sessionId names no session of this organisation' },
  alwaysAllowAction: {
    NOT_FOUND: 'interruptId names no interrupt of this organisation',
    CONFLICT: `actionName names none of its action requests, the action does not allow approve, its name holds * or ?, or the key that opened it is gone; or ${RULE_CAP}`,
  },
  createClassificationRule: {
    CONFLICT: RULE_CAP,
  },
  applyClassificationSuggestion: {
    CONFLICT: `somebody applied or dismissed the suggestion meanwhile; or ${RULE_CAP}`,
  },
  putClassifier: {
    CONFLICT: 'somebody set up the classifier meanwhile',
  },
  dismissClassificationSuggestion: {
    CONFLICT: 'somebody applied or dismissed the suggestion meanwhile',
  },
  streamEvents: {
    VALIDATION_FAILED: 'Last-Event-ID is not the id of an event of this stream',
    RATE_LIMITED:
      "the person's or the organisation's open streams are at their cap on this instance (SPEC §8b); Retry-After 15",
    SERVICE_UNAVAILABLE: "the instance's open streams are at its cap (SPEC §8b); Retry-After 5",
  },
  streamSession: {
    VALIDATION_FAILED: 'Last-Event-ID is not the number of a message of this session',
    RATE_LIMITED:
      "the person's or the organisation's open streams are at their cap on this instance (SPEC §8b); Retry-After 15",
    SERVICE_UNAVAILABLE: "the instance's open streams are at its cap (SPEC §8b); Retry-After 5",
  },
  getInterrupt: {
    PLAN_REQUIRED:
      'include=history with a key of an organisation not on Pro: history is audit entries, and the audit log API needs Pro',
    MISSING_PERMISSION: 'include=history by a member without auditLog.read',
  },
  createInvitation: {
    NOT_FOUND: 'roleId names no role of this organisation',
    CONFLICT: 'an account with this email already exists',
  },
  acceptInvitation: {
    SSO_REQUIRED:
      'the organisation requires single sign-on: signing in with it uses the invitation (SPEC §8f)',
    INVALID_TOKEN: FOREIGN_EMAIL_PROOF,
    CONFLICT:
      'an account with this email already exists (where it never verified the address, the message says how its owner takes it over: a password reset)',
  },
  joinInvitation: {
    SSO_REQUIRED:
      'the organisation requires single sign-on: signing in with it uses the invitation (SPEC §8f)',
    INVALID_TOKEN: FOREIGN_EMAIL_PROOF,
    EMAIL_NOT_VERIFIED:
      "the server requires verified addresses (EMAIL_VERIFICATION), the person's is not verified yet, and no emailProof came",
  },
  changeMemberRole: {
    NOT_FOUND: 'roleId names no role of this organisation',
    CONFLICT: 'the organisation must keep an Owner: the last Owner keeps the role',
  },
  removeMember: {
    CONFLICT: 'the organisation must keep an Owner: the last Owner cannot be removed',
  },
  createRole: { CONFLICT: 'a role with this name already exists' },
  updateRole: {
    CONFLICT: 'built-in roles cannot be changed, or a role with this name already exists',
  },
  deleteRole: { CONFLICT: 'built-in roles cannot be deleted, nor a role a member still holds' },
  createTeam: { CONFLICT: 'a team with this name already exists' },
  renameTeam: { CONFLICT: 'a team with this name already exists' },
  addTeamMember: { NOT_FOUND: 'memberId names no member of this organisation' },
  assignInterrupt: { NOT_FOUND: 'memberId or teamId names no member or team of this organisation' },
  decideInterrupt: {
    CONFLICT:
      'the action is already decided, the interrupt answered, or actionName or decision does not fit this interrupt',
  },
};

/** The HTTP status of an error code. */
export function statusOf(code: ErrorCode): string {
  return String(ERROR_CODES[code]);
}

/**
 * OpenAPI links: where an operation's answer leads, so the stateful phase of the contract test
 * (and a reader) can follow created resources into the operations that use them — the agent's
 * writes into the members' decisions, a created role into an invitation, a team into its
 * members, a webhook into its deliveries, and so on. Where the body must name a member the answer
 * does not hold (a team's new member, an interrupt's assignee) the operation's body rules say so
 * (`callerMember`), and the contract test names its own member there.
 */
const byId = { id: '$response.body#/id' };
const sameId = { id: '$request.path.id' };

export const OPERATION_LINKS: Record<
  string,
  Record<
    string,
    { operationId: string; parameters?: Record<string, string>; requestBody?: unknown }
  >
> = {
  createInterrupt: {
    GetInterrupt: { operationId: 'getInterrupt', parameters: byId },
    DecideInterrupt: {
      operationId: 'decideInterrupt',
      parameters: byId,
      requestBody: { actionName: '$response.body#/actionRequests/0/name', decision: 'approve' },
    },
    EscalateInterrupt: { operationId: 'escalateInterrupt', parameters: byId },
    AssignInterrupt: { operationId: 'assignInterrupt', parameters: byId },
    SetInterruptPriority: {
      operationId: 'setInterruptPriority',
      parameters: byId,
      requestBody: { priority: 'urgent' },
    },
    // The longest deadline there is: always later than the one the interrupt was opened with
    // (a fixed hour is refused after an interrupt opened with a longer one).
    ExtendInterruptDeadline: {
      operationId: 'extendInterruptDeadline',
      parameters: byId,
      requestBody: { timeoutSeconds: MAX_TIMEOUT_SECONDS },
    },
    CancelInterrupt: {
      operationId: 'cancelInterrupt',
      parameters: byId,
      requestBody: { reason: 'No longer needed' },
    },
  },
  assignInterrupt: {
    GetAssignedInterrupt: { operationId: 'getInterrupt', parameters: sameId },
  },
  startSession: {
    RetrieveSession: { operationId: 'retrieveSession', parameters: byId },
    AppendSessionMessages: { operationId: 'appendSessionMessages', parameters: byId },
    EndSession: { operationId: 'endSession', parameters: byId },
    DisconnectSession: { operationId: 'disconnectSession', parameters: byId },
  },
  createApiKey: {
    RenameApiKey: { operationId: 'renameApiKey', parameters: byId },
    RevokeApiKey: { operationId: 'revokeApiKey', parameters: byId },
  },
  createRole: {
    UpdateRole: { operationId: 'updateRole', parameters: byId },
    // No DeleteRole link: deleting a role deletes its pending invitations, so a scenario that
    // deleted the role and then previewed its invitation met the 404 the cascade rightly gives,
    // which the stateful check takes for a created resource gone missing (ST302).
    InviteWithRole: {
      operationId: 'createInvitation',
      requestBody: { email: 'invitee@example.com', roleId: '$response.body#/id' },
    },
  },
  createTeam: {
    RenameTeam: { operationId: 'renameTeam', parameters: byId },
    DeleteTeam: { operationId: 'deleteTeam', parameters: byId },
    AddTeamMember: { operationId: 'addTeamMember', parameters: byId },
  },
  addTeamMember: {
    RemoveTeamMember: {
      operationId: 'removeTeamMember',
      parameters: { id: '$request.path.id', memberId: '$request.body#/memberId' },
    },
  },
  createInvitation: {
    PreviewInvitation: {
      operationId: 'getInvitation',
      parameters: { token: '$response.body#/token' },
    },
    AcceptInvitation: {
      operationId: 'acceptInvitation',
      parameters: { token: '$response.body#/token' },
    },
    WithdrawInvitation: { operationId: 'withdrawInvitation', parameters: byId },
  },
  acceptInvitation: {
    ChangeMemberRole: {
      operationId: 'changeMemberRole',
      parameters: { id: '$response.body#/user/id' },
    },
    RemoveMember: { operationId: 'removeMember', parameters: { id: '$response.body#/user/id' } },
  },
  createWebhook: {
    GetWebhook: { operationId: 'getWebhook', parameters: byId },
    UpdateWebhook: { operationId: 'updateWebhook', parameters: byId },
    DeleteWebhook: { operationId: 'deleteWebhook', parameters: byId },
    RotateWebhookSecret: { operationId: 'rotateWebhookSecret', parameters: byId },
    TestWebhook: { operationId: 'testWebhook', parameters: byId },
    ListWebhookDeliveries: { operationId: 'listWebhookDeliveries', parameters: byId },
  },
  updateWebhook: {
    TestUpdatedWebhook: { operationId: 'testWebhook', parameters: sameId },
    ListUpdatedWebhookDeliveries: { operationId: 'listWebhookDeliveries', parameters: sameId },
  },
  testWebhook: {
    RetryWebhookDelivery: {
      operationId: 'retryWebhookDelivery',
      parameters: { id: '$request.path.id', deliveryId: '$response.body#/id' },
    },
  },
  createClassificationRule: {
    GetClassificationRule: { operationId: 'getClassificationRule', parameters: byId },
    UpdateClassificationRule: { operationId: 'updateClassificationRule', parameters: byId },
    DeleteClassificationRule: { operationId: 'deleteClassificationRule', parameters: byId },
    GetClassificationRuleStats: { operationId: 'getClassificationRuleStats', parameters: byId },
  },
};

/**
 * Rules on a query that JSON Schema cannot state, as `x-interlock-query-rules` on the operation
 * (and in its parameters' descriptions): a cursor is opaque and only one this operation issued
 * is valid; `from` may not be after `to`; `q` holds at most so many distinct words. The contract
 * test's generator honours them (tools/contract/hooks.py); the service answers 400 otherwise.
 */
export interface QueryRules {
  opaqueCursor?: true;
  fromNotAfterTo?: true;
  maxWords?: Record<string, number>;
}

/**
 * Rules on a body that JSON Schema cannot state, as `x-interlock-body-rules` on the operation:
 * `ianaTimeZone` names the fields that hold an IANA time zone name (a string the runtime's time
 * zone database must know; any other answers 400), `organisationDependent` those whose validity
 * depends on the organisation's settings. The contract test's generator honours them.
 */
export interface BodyRules {
  ianaTimeZone?: string[];
  /**
   * Fields whose valid values depend on the organisation's settings: `onTimeout` needs a deadline
   * (`timeoutSeconds`, or the organisation's default) and `approve` needs the organisation to
   * allow it (SPEC §8e); a default deadline must not exceed the maximum, and a lower maximum makes
   * longer `timeoutSeconds` invalid; an escalation policy's `steps` name the organisation's
   * members and teams and must come later one after another; an action's `approverTeam` names a
   * team of the organisation with at least `requiredApprovals` members. Paths, `[]` for every
   * element of an array. The contract test's valid cases leave them out; the e2e tests cover them.
   */
  organisationDependent?: string[];
  /**
   * At least one of `fields` must be present (a body holding only others answers 400); `fill` is
   * what a valid request holding none of them may add — valid for any organisation — so a fuzzer
   * need not guess one.
   */
  requireAnyOf?: { fields: string[]; fill: Record<string, unknown> };
  /**
   * Fields that name a current member of the organisation (a made-up id answers 404): the
   * contract test's valid cases name its own member there, so links into them reach the action.
   */
  callerMember?: string[];
  /**
   * Fields that are the body's alternative to its `callerMember` field and name something else
   * the organisation must have (an interrupt's assignee team: a made-up id answers 404): the
   * contract test's valid cases holding one name its own member through `callerMember` instead.
   */
  callerMemberInsteadOf?: string[];
  /**
   * Every `assignTo` object in the body, at any depth (a route outcome's assignee, an interrupt's
   * assignee at creation), names a member or team of the organisation (a made-up one answers 404,
   * or 400 at an interrupt's creation, SPEC §8e): the contract test's valid cases name its own
   * member there (`{memberId}`).
   */
  callerAssignee?: true;
  /**
   * Fields whose rules the contract states in words, not in JSON Schema: a `responseSchema` is
   * itself a JSON Schema of a bounded subset (SPEC §5), which a generator cannot aim at; above 1,
   * `requiredApprovals` rules out `edit` in `allowedDecisions` (SPEC §8e). Paths,
   * `[]` for every element of an array. The contract test's valid cases leave them out; the e2e
   * tests cover them.
   */
  statedInWords?: string[];
  /**
   * A Cedar policy text (`{type: "policy", policy}` outcomes, at any depth): valid only if it parses
   * and validates against Interlock's schema (a generated string answers 400). The contract test's
   * valid cases put the rule's `fill` there, a policy valid for any organisation; the e2e tests
   * cover real ones and the refusals.
   */
  cedarPolicy?: { fill: string };
}

const VALID_POLICY = 'permit (principal, action, resource);';

export const OPERATION_BODY_RULES: Record<string, BodyRules> = {
  createClassificationRule: { cedarPolicy: { fill: VALID_POLICY }, callerAssignee: true },
  updateClassificationRule: { cedarPolicy: { fill: VALID_POLICY }, callerAssignee: true },
  updateNotificationPreferences: { ianaTimeZone: ['timeZone'] },
  addTeamMember: { callerMember: ['memberId'] },
  assignInterrupt: { callerMember: ['memberId'], callerMemberInsteadOf: ['teamId'] },
  createInterrupt: {
    callerAssignee: true,
    organisationDependent: ['onTimeout', 'actionRequests[].approverTeam'],
    statedInWords: ['actionRequests[].responseSchema', 'actionRequests[].requiredApprovals'],
  },
  dryRunClassification: {
    requireAnyOf: { fields: ['sample', 'lastInterrupts'], fill: { lastInterrupts: 1 } },
    cedarPolicy: { fill: VALID_POLICY },
  },
  replaceEscalationPolicy: {
    organisationDependent: ['steps'],
    requireAnyOf: { fields: ['steps'], fill: { steps: [] } },
  },
  replaceTeamEscalationPolicy: {
    organisationDependent: ['steps'],
    requireAnyOf: { fields: ['steps'], fill: { steps: [] } },
  },
  updateInterruptDeadlineSettings: {
    organisationDependent: ['defaultTimeoutSeconds', 'maxTimeoutSeconds'],
    requireAnyOf: {
      fields: ['defaultTimeoutSeconds', 'maxTimeoutSeconds', 'approveOnTimeoutAllowed'],
      fill: { approveOnTimeoutAllowed: false },
    },
  },
};

export const OPERATION_QUERY_RULES: Record<string, QueryRules> = {
  listAuditLog: { opaqueCursor: true, fromNotAfterTo: true, maxWords: { q: 8 } },
  exportAuditLog: { fromNotAfterTo: true, maxWords: { q: 8 } },
  listInterrupts: { opaqueCursor: true, fromNotAfterTo: true, maxWords: { q: 8 } },
  listSessions: { opaqueCursor: true, maxWords: { q: 8 } },
  listWebhookDeliveries: { opaqueCursor: true },
  listNotificationDeliveries: { opaqueCursor: true },
};
