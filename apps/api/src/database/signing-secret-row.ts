import { Column } from 'typeorm';
import type { RowClass } from './hashed-token-row';

/**
 * A row that signs what it sends with a secret the service must read back, so sealed, not hashed
 * (`WebhookSecretBox`, AES-256-GCM; a webhook, the external classifier): the current secret and,
 * after a rotation, the previous one, still signing beside it until it expires. These columns on
 * top of `base`'s.
 */
export function SigningSecretRowOn<Base extends RowClass>(base: Base) {
  abstract class SigningSecretRow extends base {
    /** The sealed current secret. */
    @Column('bytea')
    secret!: Buffer;

    /** After a rotation: the previous secret, still signing beside the new one until it expires. */
    @Column('bytea', { nullable: true })
    previousSecret!: Buffer | null;

    @Column('timestamp with time zone', { precision: 3, nullable: true })
    previousSecretExpiresAt!: Date | null;
  }
  return SigningSecretRow;
}
