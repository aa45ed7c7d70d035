import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';
import { HashedTokenRow } from '../database/hashed-token-row';
import { References } from '../database/references.decorator';

/**
 * A person's sign-in session (the `session` cookie) — not an agent's Live View session. It
 * belongs to the user, not to an organisation: each request chooses the organisation it acts
 * for among the user's current memberships. Only the SHA-256 of the cookie's token is stored;
 * `expiresAt` is the absolute end (30 days after sign-in).
 */
@Entity({ name: 'sign_in_sessions' })
@Index('sign_in_sessions_token_hash_key', ['tokenHash'], { unique: true })
@Index('sign_in_sessions_user_idx', ['userId'])
export class SignInSessionEntity extends HashedTokenRow {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  userId!: string;

  @References(() => UserEntity, 'user_id')
  user?: UserEntity;

  /** When a request last used it (kept to within a minute); idle past `SESSION_IDLE_TIMEOUT`, it ends. */
  @Column('timestamptz', { default: () => 'now()' })
  lastUsedAt!: Date;

  /** The client address and browser of its latest use, for the person's list of sessions. */
  @Column('text', { nullable: true })
  ipAddress!: string | null;

  @Column('text', { nullable: true })
  userAgent!: string | null;

  /** Made by this organisation's single sign-on: the session acts for it alone (SPEC §8f). */
  @Column('uuid', { nullable: true })
  ssoOrganisationId!: string | null;
}
