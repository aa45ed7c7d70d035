/**
 * The `organisations` table's fragment for a read that needs an organisation's plan beside its
 * own rows in the same statement. The organisation module owns the table; an owner of another
 * table composes this join rather than naming `organisations` itself, where a second round trip
 * (a call of the organisation's owner) would cost a hot path one (API-key verification).
 *
 * `alias` names the organisation row in the composed query (its `plan` is `<alias>.plan`);
 * `organisationIdColumn` is the composing query's organisation id column.
 */
export function joinOrganisationPlan(alias: string, organisationIdColumn: string): string {
  return `JOIN organisations ${alias} ON ${alias}.id = ${organisationIdColumn}`;
}
