// What `npm test`'s closing lines say about failures: each runner's reporter writes its counts and
// its failed tests (name and the start of the message) to TEST_RESULTS_DIR; tools/scripts/test.mjs
// prints them last, where a CI log that keeps only its tail still shows them.

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const MAX_LINES = 14;
const MAX_CHARS = 1_500;

/** The start of a failure message: colours stripped, at most 14 lines and 1,500 characters. */
function shortMessage(text) {
  let frames = 0;
  const lines = String(text ?? '')
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trimEnd())
    // Of the stack, the first two frames of our own code.
    .filter((l) => {
      if (!/^\s+at /.test(l)) return true;
      if (/node_modules|\(<anonymous>\)|\(node:/.test(l)) return false;
      return ++frames <= 2;
    })
    .filter((l, i, all) => l !== '' || (i > 0 && all[i - 1] !== ''));
  const head = lines.slice(0, MAX_LINES).join('\n').trim();
  return head.length > MAX_CHARS ? `${head.slice(0, MAX_CHARS)}…` : head;
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function unescapeXml(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name) => {
    if (name[0] === '#')
      return String.fromCodePoint(
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
      );
    return ENTITIES[name] ?? whole;
  });
}

/**
 * Counts, failed test cases and the time per test class (pytest's module or class, summed from
 * its cases' `time`) of a JUnit XML report (pytest's, schemathesis's).
 */
function junitResults(xml, where) {
  const results = { passed: 0, failed: 0, skipped: 0, failures: [], files: [] };
  const classMs = new Map();
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const body = match[3] ?? '';
    const className = unescapeXml(/\bclassname="([^"]*)"/.exec(match[1])?.[1] ?? '');
    const seconds = Number(/\btime="([^"]*)"/.exec(match[1])?.[1] ?? 0);
    if (className !== '' && Number.isFinite(seconds))
      classMs.set(className, (classMs.get(className) ?? 0) + seconds * 1000);
    const failure = /<(failure|error)\b([^>]*?)(\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    if (failure === null) {
      if (/<skipped\b/.test(body)) results.skipped++;
      else results.passed++;
      continue;
    }
    results.failed++;
    const attr = (name) =>
      unescapeXml(new RegExp(`\\b${name}="([^"]*)"`).exec(match[1])?.[1] ?? '');
    const message =
      unescapeXml(failure[4] ?? '') ||
      unescapeXml(/\bmessage="([^"]*)"/.exec(failure[2])?.[1] ?? '');
    results.failures.push({
      where,
      name: [attr('classname'), attr('name')].filter(Boolean).join(' › '),
      message: shortMessage(message),
    });
  }
  for (const [name, ms] of classMs) results.files.push({ where: `${where} ${name}`, ms });
  return results;
}

module.exports = { shortMessage, junitResults };
