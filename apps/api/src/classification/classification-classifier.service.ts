import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { type ClassifierSnapshot, DomainError } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { generateWebhookSecret } from '../webhooks/webhook-secret.util';
import { type AddressResolver, checkEndpointUrl } from '../webhooks/webhook-url.util';
import {
  ClassificationClassifiersRepository,
  type ClassifierRow,
} from './classification-classifiers.repository';
import { classifierTarget, ClassifierSource } from './classifier-source';
import type {
  ClassifierResponse,
  ClassifierSecretResponse,
  ClassifierTestResponse,
  SavedClassifierResponse,
} from './dto/classifier.dto';
import { CLASSIFIER_LIMITS, ExternalClassifier } from './external-classifier';
import type { PutClassifierCommand } from './put-classifier.command';
import type { TestClassifierCommand } from './test-classifier.command';
import { RuleCache } from './rule-cache';
import type { MemberCall } from '../auth/caller';

/** Resolves an endpoint's host name (dns.lookup with `all`; the webhooks' resolver). */
export const CLASSIFIER_RESOLVER = Symbol('CLASSIFIER_RESOLVER');

/** The audit target of the classifier's changes: the organisation's one classifier. */
const targetOf = (organisationId: string) => ({
  type: 'classification' as const,
  id: organisationId,
  name: 'External classifier',
});

function toResponse(row: ClassifierRow): ClassifierResponse {
  return {
    url: row.url,
    timeoutMs: row.timeout_ms,
    enabled: row.enabled,
    previousSecretExpiresAt:
      row.previous_secret_expires_at !== null && row.previous_secret_expires_at > new Date()
        ? row.previous_secret_expires_at.toISOString()
        : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const snapshotOf = (row: ClassifierRow): ClassifierSnapshot => ({
  url: row.url,
  timeoutMs: row.timeout_ms,
  enabled: row.enabled,
});

/**
 * An organisation's external classifier (SPEC §8d, issue 29 §1.3): set up, changed, switched
 * off, its secret rotated, removed — each audited by the member in its transaction, and
 * announced to every instance's rule cache before it answers — and tried with a sample action.
 */
@Injectable()
export class ClassificationClassifierService {
  private readonly production: boolean;

  constructor(
    private readonly dataSource: DataSource,
    private readonly classifiers: ClassificationClassifiersRepository,
    private readonly source: ClassifierSource,
    private readonly cache: RuleCache,
    private readonly external: ExternalClassifier,
    @Inject(CLASSIFIER_RESOLVER) private readonly resolve: AddressResolver,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.production = config.nodeEnv === 'production';
  }

  async get(organisationId: string): Promise<ClassifierResponse | null> {
    const row = await this.classifiers.read(this.dataSource, organisationId);
    return row === undefined ? null : toResponse(row);
  }

  /** Creates (with a new secret, answered this once) or changes the classifier. */
  async put(command: PutClassifierCommand): Promise<SavedClassifierResponse> {
    const { organisationId, actor, ip } = command;
    const checked = await checkEndpointUrl(command.url, this.production, this.resolve);
    if ('refusal' in checked) throw new DomainError('VALIDATION_FAILED', checked.refusal);
    const result = await this.dataSource.transaction(async (tx) => {
      const before = await this.classifiers.lock(tx, organisationId);
      const values = {
        url: checked.url,
        timeoutMs: command.timeoutMs ?? before?.timeout_ms ?? CLASSIFIER_LIMITS.timeoutMs.default,
        enabled: command.enabled ?? before?.enabled ?? true,
      };
      if (before === undefined) {
        const secret = generateWebhookSecret();
        const row = await this.classifiers.insert(tx, organisationId, {
          ...values,
          secret: this.source.seal(secret, organisationId),
        });
        if (row === undefined)
          throw new DomainError('CONFLICT', 'somebody set up the classifier meanwhile');
        await writeAuditEntry(tx, {
          organisationId,
          action: 'classification.classifier_configured',
          actor,
          target: targetOf(organisationId),
          metadata: { classifier: snapshotOf(row) },
          ipAddress: ip,
        });
        return { row, secret, changed: true };
      }
      const from = snapshotOf(before);
      if (
        from.url === values.url &&
        from.timeoutMs === values.timeoutMs &&
        from.enabled === values.enabled
      )
        return { row: before, secret: undefined, changed: false };
      const row = await this.classifiers.update(tx, organisationId, values);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.classifier_configured',
        actor,
        target: targetOf(organisationId),
        metadata: { classifier: snapshotOf(row), from },
        ipAddress: ip,
      });
      return { row, secret: undefined, changed: true };
    });
    if (result.changed) await this.cache.changed(organisationId);
    return {
      classifier: toResponse(result.row),
      ...(result.secret === undefined ? {} : { secret: result.secret }),
    };
  }

  /** A new secret; the previous one keeps signing beside it for 24 hours. */
  async rotateSecret({ organisationId, actor, ip }: MemberCall): Promise<ClassifierSecretResponse> {
    const secret = generateWebhookSecret();
    const row = await this.dataSource.transaction(async (tx) => {
      if ((await this.classifiers.lock(tx, organisationId)) === undefined)
        throw DomainError.of('NOT_FOUND');
      const rotated = await this.classifiers.rotateSecret(
        tx,
        organisationId,
        this.source.seal(secret, organisationId),
      );
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.classifier_secret_rotated',
        actor,
        target: targetOf(organisationId),
        metadata: {
          previousSecretExpiresAt: (rotated.previous_secret_expires_at as Date).toISOString(),
        },
        ipAddress: ip,
      });
      return rotated;
    });
    await this.cache.changed(organisationId);
    return { classifier: toResponse(row), secret };
  }

  async remove({ organisationId, actor, ip }: MemberCall): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const row = await this.classifiers.lock(tx, organisationId);
      if (row === undefined) throw DomainError.of('NOT_FOUND');
      await this.classifiers.remove(tx, organisationId);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'classification.classifier_deleted',
        actor,
        target: targetOf(organisationId),
        metadata: { classifier: snapshotOf(row) },
        ipAddress: ip,
      });
    });
    await this.cache.changed(organisationId);
  }

  /**
   * Asks the saved classifier (even while it is off) about a sample action, exactly as argus
   * would for a new interrupt, and says what came back. Writes nothing.
   */
  async test({
    organisationId,
    sample: body,
  }: TestClassifierCommand): Promise<ClassifierTestResponse> {
    const row = await this.classifiers.read(this.dataSource, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    const loaded = this.source.open(row);
    const result = await this.external.classify(classifierTarget(loaded, Date.now()), {
      title: body.title ?? 'A test from Interlock',
      description: null,
      sessionId: null,
      key: null,
      action: {
        name: body.actionName ?? 'interlock.test',
        args: body.args ?? {},
        allowedDecisions: ['approve', 'reject'],
      },
    });
    return result.ok
      ? {
          ok: true,
          classifierMs: result.ms,
          risk: result.risk,
          labels: result.labels,
          reasons: result.reasons,
          error: null,
        }
      : {
          ok: false,
          classifierMs: result.ms,
          risk: null,
          labels: [],
          reasons: [],
          error: result.error,
        };
  }
}
