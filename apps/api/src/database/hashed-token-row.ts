import { Column, CreateDateColumn } from 'typeorm';

/**
 * A row found by a secret token that only its holder has (an emailed link, an invitation, a
 * sign-in session's cookie): the row keeps the token's SHA-256 (a unique index of the table's),
 * never the token, with when it was made and when it stops working. An entity extends it and
 * adds whose the token is and what it is for.
 */
export abstract class HashedTokenRow {
  @Column('text')
  tokenHash!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz')
  expiresAt!: Date;
}
