import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { RoleEntity } from '../roles/role.entity';

/** An invitation to join an organisation. Only the SHA-256 of its token is stored. */
@Entity({ name: 'invitations' })
@Index('invitations_token_hash_key', ['tokenHash'], { unique: true })
@Index('invitations_organisation_created_idx', ['organisationId', 'createdAt'])
export class InvitationEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  email!: string;

  @Column('uuid')
  roleId!: string;

  @ManyToOne(() => RoleEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'role_id', referencedColumnName: 'id' },
  ])
  role?: RoleEntity;

  @Column('text')
  tokenHash!: string;

  @Column('uuid')
  invitedBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz', { nullable: true })
  acceptedAt!: Date | null;
}
