import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A person who signs in: one per email address across the service, a member of any number of
 * organisations (memberships). Not an organisation's data, so it carries no organisation_id: a
 * reference table (docs/DECISIONS.md, "Users and memberships"). A user's id is their member id
 * in every organisation they belong to, and the `actorId` of their audit entries.
 */
@Entity({ name: 'users' })
@Index('users_email_key', ['email'], { unique: true })
export class UserEntity {
  @PrimaryColumn('uuid')
  id!: string;

  /** Trimmed and lower-cased; sign-in is by email. */
  @Column('text')
  email!: string;

  @Column('text')
  name!: string;

  @Column('text')
  passwordHash!: string;

  /**
   * When the person proved `email` by a link the service emailed to it (a verification or a
   * password reset link); null while unproven (SPEC §8f). Invitations and notifications wait
   * for it where `EMAIL_VERIFICATION` is `required`.
   */
  @Column('timestamptz', { nullable: true })
  emailVerifiedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
