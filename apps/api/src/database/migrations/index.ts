import { CreateOrganisations1763683200000 } from './1763683200000-create-organisations';
import { AccountsAndKeys1795291937217 } from './1795291937217-accounts-and-keys';
import { CreateAuditLog1795292000000 } from './1795292000000-create-audit-log';
import { AuditLogChainAndSearch1795300000000 } from './1795300000000-audit-log-chain-and-search';
import { InterruptsAndSessions1795310000000 } from './1795310000000-interrupts-and-sessions';
import { AuditLogWordLexicon1795320000000 } from './1795320000000-audit-log-word-lexicon';
import { AuditLogSearchKeys1795330000000 } from './1795330000000-audit-log-search-keys';
import { AuditLogWordCounts1795340000000 } from './1795340000000-audit-log-word-counts';
import { InboxAndSessionListing1795351200000 } from './1795351200000-inbox-and-session-listing';
import { InboxTitleSearchKeys1795351300000 } from './1795351300000-inbox-title-search-keys';
import { DecisionEditedName1795356000000 } from './1795356000000-decision-edited-name';

export const MIGRATIONS = [CreateOrganisations1763683200000, AccountsAndKeys1795291937217, CreateAuditLog1795292000000, AuditLogChainAndSearch1795300000000, InterruptsAndSessions1795310000000, AuditLogWordLexicon1795320000000, AuditLogSearchKeys1795330000000, AuditLogWordCounts1795340000000, InboxAndSessionListing1795351200000, InboxTitleSearchKeys1795351300000, DecisionEditedName1795356000000];
