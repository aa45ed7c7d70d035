import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';
import { HashedTokenRow } from '../database/hashed-token-row';
import { References } from '../database/references.decorator';

/**
 * A single-use token emailed to a person (SPEC §8f): a password reset, an email verification, an
 * email change (to the new address) or its undo (to the old one) link. Only the token's
 * SHA-256 is kept; the token itself is in the email and nowhere else. `used_at` is set when it
 * is used (or when a later change of password makes it moot), so it works once. A reference
 * table like `users` (ARCHITECTURE.md): it is looked up by its hash before anyone is signed in.
 */
@Entity({ name: 'account_tokens' })
@Index('account_tokens_token_hash_key', ['tokenHash'], { unique: true })
@Index('account_tokens_user_idx', ['userId', 'purpose'])
@Check(
  'account_tokens_purpose_check',
  `"purpose" IN ('password_reset', 'email_verification', 'email_change', 'email_revert')`,
)
export class AccountTokenEntity extends HashedTokenRow {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  userId!: string;

  @References(() => UserEntity, 'user_id')
  user?: UserEntity;

  @Column('text')
  purpose!: string;

  /** The address the link was sent to. */
  @Column('text')
  email!: string;

  @Column('timestamptz', { nullable: true })
  usedAt!: Date | null;
}
