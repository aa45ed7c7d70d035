/**
 * argus in one sentence, wherever it appears (issue 31 §5: "argus" and "classification" explained
 * where they appear): the interrupt page, its decision cards, the audit log's entries by argus.
 */
export const ARGUS_IN_WORDS =
  'argus applies your organisation’s classification rules (Settings → Classification) to every action when an interrupt opens: an enforced rule may approve, reject or route it; a shadow rule only records what it would have done.';
