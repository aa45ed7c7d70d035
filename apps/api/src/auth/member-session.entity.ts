import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MemberEntity } from '../members/member.entity';

/** A signed-in browser session. Only the SHA-256 of the cookie's token is stored. */
@Entity({ name: 'member_sessions' })
@Index('member_sessions_token_hash_key', ['tokenHash'], { unique: true })
@Index('member_sessions_member_idx', ['organisationId', 'memberId'])
export class MemberSessionEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid')
  memberId!: string;

  @ManyToOne(() => MemberEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'member_id', referencedColumnName: 'id' },
  ])
  member?: MemberEntity;

  @Column('text')
  tokenHash!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;
}
