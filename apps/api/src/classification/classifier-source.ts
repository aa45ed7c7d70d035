import { Inject, Injectable } from '@nestjs/common';
import type { Queryable } from '../database/query-rows.util';
import { WebhookSecretBox } from '../webhooks/webhook-secret.util';
import {
  ClassificationClassifiersRepository,
  type ClassifierRow,
} from './classification-classifiers.repository';
import type { ClassifierTarget } from './external-classifier';

/** The box sealing classifier secrets: the webhooks' cipher under a key of its own purpose. */
export const CLASSIFIER_SECRET_BOX = Symbol('CLASSIFIER_SECRET_BOX');
export const CLASSIFIER_SECRET_PURPOSE = 'classifier-signing-secrets/v1';

/** An enabled classifier as the rule cache keeps it: secrets opened. */
export interface CachedClassifier {
  url: string;
  timeoutMs: number;
  secret: string;
  previous: { secret: string; expiresAtMs: number } | null;
}

/** Where to ask, signed with the current secret and, until it expires, the previous one. */
export function classifierTarget(c: CachedClassifier, now: number): ClassifierTarget {
  return {
    url: c.url,
    timeoutMs: c.timeoutMs,
    secrets:
      c.previous !== null && c.previous.expiresAtMs > now
        ? [c.secret, c.previous.secret]
        : [c.secret],
  };
}

/** Reads an organisation's classifier for the rule cache, and seals and opens its secrets. */
@Injectable()
export class ClassifierSource {
  constructor(
    private readonly classifiers: ClassificationClassifiersRepository,
    @Inject(CLASSIFIER_SECRET_BOX) private readonly box: WebhookSecretBox,
  ) {}

  seal(secret: string, organisationId: string): Buffer {
    return this.box.seal(secret, organisationId, 'classifier');
  }

  /** The enabled classifier (null: none, or switched off). */
  async load(db: Queryable, organisationId: string): Promise<CachedClassifier | null> {
    const row = await this.classifiers.read(db, organisationId);
    return row?.enabled === true ? this.open(row) : null;
  }

  /** A row with its secrets opened. */
  open(row: ClassifierRow): CachedClassifier {
    const open = (sealed: Buffer) => this.box.open(sealed, row.organisation_id, 'classifier');
    return {
      url: row.url,
      timeoutMs: row.timeout_ms,
      secret: open(row.secret),
      previous:
        row.previous_secret === null || row.previous_secret_expires_at === null
          ? null
          : {
              secret: open(row.previous_secret),
              expiresAtMs: row.previous_secret_expires_at.getTime(),
            },
    };
  }
}
