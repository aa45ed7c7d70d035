import { MigrationInterface, QueryRunner } from 'typeorm';

/** The role that owns the audit log's tables and functions: nobody logs in as it. */
export const AUDIT_OWNER_ROLE = 'interlock_audit_owner';

/**
 * The audit log's tables are no longer the service's (issue 34 item 12). Whoever owns a table may
 * `ALTER TABLE … DISABLE TRIGGER` — and whoever owns a trigger's function may replace its body —
 * so a service whose role owned `audit_log_entries` could switch off the append-only triggers.
 * This hands `audit_log_entries`, `audit_log_heads`, `audit_log_words` and every `audit_*`
 * function to a role nobody logs in as, `interlock_audit_owner` (made here when missing), and
 * gives the migrating role back only what the service does with them: read and append entries,
 * and the triggers' upkeep of the heads and the word counts.
 *
 * It takes a role allowed to hand objects away: a superuser (the embedded database, a Postgres
 * the platform team migrates as its admin), or a member of `interlock_audit_owner`. Any other
 * role leaves things as they were, with a notice (the README, "Security notes": two roles). The
 * protection holds for a service that runs as a role that is neither a superuser nor a member of
 * the owner role — the README's two-role set-up; a superuser can always do anything.
 */
export class AuditLogOwner1795740000000 implements MigrationInterface {
  name = 'AuditLogOwner1795740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DO $$
DECLARE
  fn regprocedure;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${AUDIT_OWNER_ROLE}') THEN
    BEGIN
      CREATE ROLE ${AUDIT_OWNER_ROLE} NOLOGIN;
    EXCEPTION
      WHEN duplicate_object THEN NULL; -- another database of this server made it meanwhile
      WHEN insufficient_privilege THEN
        RAISE NOTICE 'audit log: % cannot create the role ${AUDIT_OWNER_ROLE}; the audit tables stay its own (README: Security notes)', current_user;
        RETURN;
    END;
  END IF;
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AND NOT pg_has_role(current_user, '${AUDIT_OWNER_ROLE}', 'MEMBER') THEN
    RAISE NOTICE 'audit log: % may not hand objects to ${AUDIT_OWNER_ROLE}; the audit tables stay its own (README: Security notes)', current_user;
    RETURN;
  END IF;
  ALTER TABLE audit_log_entries OWNER TO ${AUDIT_OWNER_ROLE};
  ALTER TABLE audit_log_heads OWNER TO ${AUDIT_OWNER_ROLE};
  ALTER TABLE audit_log_words OWNER TO ${AUDIT_OWNER_ROLE};
  FOR fn IN
    SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = current_schema() AND p.proname LIKE 'audit\\_%'
  LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO ${AUDIT_OWNER_ROLE}', fn);
  END LOOP;
  -- What the service does with them, kept for the role that migrates (and runs, in a one-role
  -- set-up). Granted after the hand-over: a change of owner rewrites the old owner's grants as the new one's.
  EXECUTE format('GRANT SELECT, INSERT ON audit_log_entries TO %I', current_user);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE ON audit_log_heads, audit_log_words TO %I', current_user);
END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DO $$
DECLARE
  fn regprocedure;
BEGIN
  IF (SELECT tableowner FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'audit_log_entries') <> '${AUDIT_OWNER_ROLE}' THEN
    RETURN;
  END IF;
  EXECUTE format('ALTER TABLE audit_log_entries OWNER TO %I', current_user);
  EXECUTE format('ALTER TABLE audit_log_heads OWNER TO %I', current_user);
  EXECUTE format('ALTER TABLE audit_log_words OWNER TO %I', current_user);
  FOR fn IN
    SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = current_schema() AND p.proname LIKE 'audit\\_%'
  LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO %I', fn, current_user);
  END LOOP;
END $$`);
  }
}
