import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { SessionEntity } from './session.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

export const MESSAGE_ROLES = ['agent', 'user', 'tool', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** One message of a session, numbered from 1 within it (`seq` is the SSE event id). */
@Entity({ name: 'session_messages' })
// The retention job's walk by age: a BRIN index, which TypeORM cannot compare (migration 1795763000000).
@Index('session_messages_created_idx', { synchronize: false })
@Check('session_messages_role_check', `"role" IN ('agent', 'user', 'tool', 'system')`)
export class SessionMessageEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  sessionId!: string;

  @PrimaryColumn('integer')
  seq!: number;

  @ReferencesInOrganisation(() => SessionEntity, 'session_id')
  session?: SessionEntity;

  @Column('text')
  role!: MessageRole;

  @Column('text')
  content!: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
