import type { Type } from '@nestjs/common';
import { ERROR_MESSAGES, DomainError } from '@interlock/domain';
import {
  InterlockBackend,
  InterlockBackendError,
  type CallOptions,
  type CreateOptions,
  type Created,
  type KeyIdentity,
} from '@interlock/mcp';
import type { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import type { KeyCall } from '../auth/caller';
import { keyCallOf, type ApiKeyPrincipal } from '../auth/principal';
import { isDatabaseUnavailable } from '../http/database-unavailable.util';
import { ApiValidationPipe } from '../http/validation.pipe';
import { requestFingerprint } from '../idempotency/request-fingerprint.util';
import { CancelInterruptDto } from '../interrupts/dto/cancel-interrupt.dto';
import { CreateInterruptDto } from '../interrupts/dto/create-interrupt.dto';
import type {
  InterruptListResponse,
  InterruptResponse,
} from '../interrupts/dto/interrupt.response';
import { ListInterruptsQuery } from '../interrupts/dto/list-interrupts.query';
import type { InterruptLifecycleService } from '../interrupts/interrupt-lifecycle.service';
import type { InterruptsService } from '../interrupts/interrupts.service';
import { AppendMessagesDto } from '../sessions/dto/append-messages.dto';
import type { SessionResponse } from '../sessions/dto/session.response';
import { StartSessionDto } from '../sessions/dto/start-session.dto';
import type { SessionsService } from '../sessions/sessions.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ServiceBackendDeps {
  interrupts: InterruptsService;
  lifecycle: InterruptLifecycleService;
  sessions: SessionsService;
  verifier: ApiKeyVerifier;
}

export interface McpCaller {
  /** The `x-api-key` the `/mcp` request carried (already verified by the guards). */
  rawKey: string;
  /** The client address, for audit entries. */
  ip: string | null;
  requestId: string;
}

/**
 * The MCP tools' way to Interlock inside the API: the same services the REST controllers call,
 * for the key that authenticated the `/mcp` request, so the organisation comes from that key
 * and from nothing the client sends. Inputs go through the REST endpoints' own DTOs and
 * validation pipe (the same 400 texts), creations through the same idempotency store (the same
 * fingerprint as `POST /api/interrupts`).
 *
 * The key is verified again before every call — through the verifier's cache, which every
 * instance empties the moment a key is revoked — so a key revoked while a tool waits is refused
 * on the next read with the exact `Invalid API key.` text.
 */
export class ServiceBackend implements InterlockBackend {
  private readonly pipe = new ApiValidationPipe();

  constructor(
    private readonly deps: ServiceBackendDeps,
    private readonly caller: McpCaller,
  ) {}

  identity(): Promise<KeyIdentity> {
    return this.run(async () => {
      const key = await this.key();
      return { apiKeyId: key.apiKeyId, organisationId: key.organisationId };
    });
  }

  createInterrupt(params: object, options: CreateOptions): Promise<Created<InterruptResponse>> {
    return this.run(async () => {
      const call = await this.keyCall();
      const body = await this.validate(CreateInterruptDto, params, 'body');
      const result = await this.deps.interrupts.create({
        interrupt: body,
        idempotency: {
          organisationId: call.organisationId,
          key: options.idempotencyKey,
          fingerprint: requestFingerprint('POST', '/api/interrupts', params),
        },
        ...call,
      });
      return { value: result.value, replayed: result.replayed };
    });
  }

  getInterrupt(id: string, _options?: CallOptions): Promise<InterruptResponse> {
    return this.run(async () => {
      const key = await this.key();
      return this.deps.interrupts.get(key.organisationId, uuid(id));
    });
  }

  cancelInterrupt(id: string, reason: string): Promise<InterruptResponse> {
    return this.run(async () => {
      const call = await this.keyCall();
      const body = await this.validate(CancelInterruptDto, { reason }, 'body');
      return this.deps.lifecycle.cancel(call, uuid(id), body.reason ?? null);
    });
  }

  listOwnOpenInterrupts(page: { cursor?: string; limit: number }): Promise<InterruptListResponse> {
    return this.run(async () => {
      const key = await this.key();
      const query = await this.validate(
        ListInterruptsQuery,
        { status: 'open', openedBy: 'me', cursor: page.cursor, limit: page.limit },
        'query',
      );
      return this.deps.interrupts.list({
        organisationId: key.organisationId,
        caller: { apiKeyId: key.apiKeyId },
        listing: query,
      });
    });
  }

  startSession(params: object): Promise<SessionResponse> {
    return this.run(async () => {
      const call = await this.keyCall();
      const body = await this.validate(StartSessionDto, params, 'body');
      return (
        await this.deps.sessions.start({
          name: body.name,
          externalId: body.externalId ?? null,
          metadata: body.metadata ?? null,
          ...call,
        })
      ).value;
    });
  }

  appendMessages(sessionId: string, messages: object[]): Promise<{ appended: number }> {
    return this.run(async () => {
      const key = await this.key();
      const body = await this.validate(AppendMessagesDto, { messages }, 'body');
      return (
        await this.deps.sessions.append({
          organisationId: key.organisationId,
          sessionId: uuid(sessionId),
          messages: body.messages,
        })
      ).value;
    });
  }

  endSession(sessionId: string): Promise<SessionResponse> {
    return this.run(async () => {
      return this.deps.sessions.end(await this.keyCall(), uuid(sessionId));
    });
  }

  /** The key as it is now: refused (401) the moment it is revoked or expires. */
  private async key(): Promise<ApiKeyPrincipal> {
    return this.deps.verifier.verify(this.caller.rawKey);
  }

  /** The call as a use case takes it: the key as it is now, and the client address. */
  private async keyCall(): Promise<KeyCall> {
    return keyCallOf(await this.key(), this.caller.ip);
  }

  private validate<T extends object>(
    dto: Type<T>,
    value: object,
    type: 'body' | 'query',
  ): Promise<T> {
    // Plain JSON, as it would have arrived over HTTP: no undefined members, no prototypes.
    const plain = JSON.parse(JSON.stringify(value)) as unknown;
    return this.pipe.transform(plain, { type, metatype: dto, data: '' }) as Promise<T>;
  }

  /** Runs a call, turning what the service refuses into the API's error, text for text. */
  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof DomainError) {
        throw new InterlockBackendError(error.message, {
          status: error.status,
          code: error.code,
          requestId: this.caller.requestId,
        });
      }
      if (isDatabaseUnavailable(error)) {
        throw new InterlockBackendError(ERROR_MESSAGES.SERVICE_UNAVAILABLE, {
          status: 503,
          code: 'SERVICE_UNAVAILABLE',
          requestId: this.caller.requestId,
        });
      }
      throw error;
    }
  }
}

/** A path id that is not a UUID names nothing: 404, as the REST endpoints answer. */
function uuid(id: string): string {
  if (!UUID.test(id)) throw DomainError.of('NOT_FOUND');
  return id.toLowerCase();
}
