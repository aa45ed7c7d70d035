import { Column, CreateDateColumn } from 'typeorm';

/** What a row class is to the mixin below: any abstract class (an entity's base). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeScript's mixin rule: a rest parameter of any[]
export type RowClass = abstract new (...args: any[]) => object;

/**
 * A row found by a secret token that only its holder has (an emailed link, an invitation, a
 * sign-in session's cookie): the row keeps the token's SHA-256 (a unique index of the table's),
 * never the token, with when it was made and when it stops working. These columns on top of
 * `base`'s, for a row that has a base of its own (an invitation: `OrganisationScopedRow`'s key).
 */
export function HashedTokenRowOn<Base extends RowClass>(base: Base) {
  abstract class TokenRow extends base {
    @Column('text')
    tokenHash!: string;

    @CreateDateColumn({ type: 'timestamptz' })
    createdAt!: Date;

    @Column('timestamptz')
    expiresAt!: Date;
  }
  return TokenRow;
}

/**
 * `HashedTokenRowOn` of nothing else: an entity extends it and adds whose the token is and what
 * it is for.
 */
export abstract class HashedTokenRow extends HashedTokenRowOn(class {}) {}
