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

/**
 * The `organisations` table's owner lends one fragment to statements of other modules that must
 * read an organisation's plan in the same statement as their own rows — the allowance counters,
 * on the hot paths POST /api/interrupts and POST /api/sessions/{id}/messages, where a separate
 * read of the plan would be a second round trip and would let an upgrade land between the two.
 *
 * The organisation's row as a derived table: columns `id` and `plan`, no row when `idParam` names
 * no organisation. Postgres flattens it into the caller's statement (one primary-key read, the
 * same plan as a join on `organisations`).
 */
export function organisationPlanRow(alias: string, idParam: string): string {
  return `(SELECT id, plan FROM organisations WHERE id = ${idParam}) AS ${alias}`;
}
