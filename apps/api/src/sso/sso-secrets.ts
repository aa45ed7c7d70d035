import { WebhookSecretBox } from '../webhooks/webhook-secret.util';
import type { SsoConnectionRow } from './sso.repository';

/**
 * Keeps providers' client secrets sealed at rest: AES-256-GCM under a key derived from the
 * server secret for this purpose alone, bound to the organisation (a ciphertext copied to
 * another organisation's row does not open).
 */
export class SsoSecrets {
  private readonly box: WebhookSecretBox;

  constructor(serverSecret: string) {
    this.box = new WebhookSecretBox(serverSecret, 'sso-client-secrets/v1');
  }

  seal(secret: string, organisationId: string): Buffer {
    return this.box.seal(secret, organisationId, 'sso');
  }

  open(connection: Pick<SsoConnectionRow, 'client_secret_sealed' | 'organisation_id'>): string {
    return this.box.open(connection.client_secret_sealed, connection.organisation_id, 'sso');
  }
}
