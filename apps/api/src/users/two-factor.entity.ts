import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';
import { References } from '../database/references.decorator';

/**
 * A person's TOTP second factor (SPEC §8f): the secret sealed under the server secret (bound to
 * the user), `enabledAt` once a code confirmed it (before that, a set-up in progress that sign-in
 * ignores), and `lastStep`, the time step of the latest code taken (a code is taken once). A
 * reference table like `users`: about a person, not one organisation.
 */
@Entity({ name: 'user_two_factor' })
export class UserTwoFactorEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'user_two_factor_pkey' })
  userId!: string;

  @OneToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_two_factor_user_id_fkey' })
  user?: UserEntity;

  @Column('bytea')
  secretSealed!: Buffer;

  @Column('timestamptz', { nullable: true })
  enabledAt!: Date | null;

  @Column('bigint', { nullable: true })
  lastStep!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}

/** One single-use recovery code of a person's (its SHA-256), `usedAt` once it signed them in. */
@Entity({ name: 'user_recovery_codes' })
export class UserRecoveryCodeEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'user_recovery_codes_pkey' })
  userId!: string;

  @PrimaryColumn('text', { primaryKeyConstraintName: 'user_recovery_codes_pkey' })
  codeHash!: string;

  @References(() => UserEntity, 'user_id', {
    foreignKeyConstraintName: 'user_recovery_codes_user_id_fkey',
  })
  user?: UserEntity;

  @Column('timestamptz', { nullable: true })
  usedAt!: Date | null;
}
