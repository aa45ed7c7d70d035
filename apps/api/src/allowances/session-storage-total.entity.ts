import { Column, Entity } from 'typeorm';
import { OneRowPerOrganisation } from '../organisation/organisation-row';

/**
 * The bytes of session-message content an organisation stores (SPEC §8, issue 34): the sum of
 * `octet_length(content)` over its `session_messages`. An append adds its bytes with one
 * conditional upsert, refused past the plan's quota (`AllowancesRepository.addSessionBytes`);
 * deletions are subtracted by a statement trigger on `session_messages` (migration
 * 1795763000001), so every deleter — the retention job, an organisation's deletion — keeps it.
 */
@Entity({ name: 'session_storage_totals' })
export class SessionStorageTotalEntity extends OneRowPerOrganisation() {
  /** pg returns a bigint as a string. */
  @Column('bigint', { default: 0 })
  messageBytes!: string;
}
