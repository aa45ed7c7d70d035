// README examples as the check runs them: every fenced block of a README, with its language, the
// line it starts on and the heading it sits under; and the human who answers what they ask, over
// the service's HTTP API with a member's session cookie.
import { readFileSync } from 'node:fs';
import { live, raw } from './live-service';

/**
 * Put `<!-- readme-check: skip: <why> -->` on the line before a fence (blank lines between are
 * allowed) to keep a block out of the check. Only for what cannot run here (installing from a
 * registry, a shell session); every other block runs as written.
 */
export const SKIP_MARKER = /^<!--\s*readme-check:\s*skip:\s*(\S.*?)\s*-->$/;

export interface ReadmeBlock {
  file: string;
  /** The 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The nearest heading above the block. */
  heading: string;
  code: string;
  /** Why the block is not run, when it is marked so. */
  skip?: string;
}

/** Every fenced code block of a Markdown file (fences may be indented, as in lists). */
export function readmeBlocks(file: string): ReadmeBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]);
    if (open === null) {
      const title = /^#{1,6} (.*)$/.exec(lines[i]);
      if (title !== null) heading = title[1];
      continue;
    }
    const [, indent, lang] = open;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i].trimEnd() !== `${indent}\`\`\``; i++)
      body.push(lines[i].slice(indent.length));
    if (i === lines.length) throw new Error(`${file}:${start + 1}: a code block that never closes`);
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const skip = before >= 0 ? SKIP_MARKER.exec(lines[before].trim())?.[1] : undefined;
    blocks.push({
      file,
      line: start + 1,
      lang,
      heading,
      code: `${body.join('\n')}\n`,
      ...(skip === undefined ? {} : { skip }),
    });
  }
  return blocks;
}

interface OpenInterrupt {
  id: string;
  actionRequests: { name: string; allowedDecisions: string[] }[];
  decisions: { actionName: string }[];
}

/**
 * Plays the organisation's humans while an example runs with `apiKey`: every open interrupt that
 * key opened (`openedBy=me`, so nothing another test opened) gets a decision for each of its
 * actions — approve where allowed, else a written answer — through the human route, with the
 * member's cookie. Runs until `done` settles; returns how many actions it decided.
 */
interface SchemaField {
  type: string;
  enum?: unknown[];
  items?: SchemaField;
  minItems?: number;
  minimum?: number;
}
interface ResponseSchema {
  properties: Record<string, SchemaField>;
  required?: string[];
}

function sample(field: SchemaField): unknown {
  if (field.enum !== undefined) return field.enum[0];
  if (field.type === 'array')
    return (field.minItems ?? 0) > 0 && field.items ? [sample(field.items)] : [];
  if (field.type === 'boolean') return true;
  if (field.type === 'integer' || field.type === 'number') return field.minimum ?? 1;
  return 'ok';
}

/** A typed answer a person could give: each required field filled (the first enum value, the minimum…). */
export function sampleResponse(schema: ResponseSchema): Record<string, unknown> {
  return Object.fromEntries((schema.required ?? []).map((n) => [n, sample(schema.properties[n])]));
}

export async function answerWhileRunning(apiKey: string, done: Promise<unknown>): Promise<number> {
  let running = true;
  const stop = () => (running = false);
  done.then(stop, stop);
  let decided = 0;
  while (running) {
    const page = await raw('GET', '/api/interrupts?status=open&openedBy=me&limit=200', {
      headers: { 'x-api-key': apiKey },
    });
    if (page.status !== 200)
      throw new Error(
        `listing the example's interrupts answered ${page.status}: ${JSON.stringify(page.body)}`,
      );
    for (const interrupt of (page.body as { interrupts: OpenInterrupt[] }).interrupts) {
      for (const action of interrupt.actionRequests) {
        if (interrupt.decisions.some((d) => d.actionName === action.name)) continue;
        const schema = (action as { responseSchema?: ResponseSchema | null }).responseSchema;
        const body = schema
          ? { actionName: action.name, decision: 'respond', response: sampleResponse(schema) }
          : action.allowedDecisions.includes('approve')
            ? { actionName: action.name, decision: 'approve' }
            : { actionName: action.name, decision: 'respond', message: 'Yes, go ahead.' };
        const answer = await raw('POST', `/api/interrupts/${interrupt.id}/decisions`, {
          headers: { cookie: live.memberCookie },
          body,
        });
        // 409: decided meanwhile (a page read before an earlier decision landed).
        if (answer.status !== 201 && answer.status !== 409) {
          throw new Error(
            `deciding ${action.name} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
          );
        }
        if (answer.status === 201) decided++;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return decided;
}
