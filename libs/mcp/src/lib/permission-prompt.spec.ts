import type { Decision, Interrupt } from '@interlock/sdk';
import { permissionAnswer } from './permission-prompt';

const decided = (decision: Decision['decision'], extras: Partial<Decision> = {}): Decision =>
  ({
    id: 'd',
    actionName: 'Bash',
    decision,
    editedArgs: null,
    editedName: null,
    message: null,
    decidedBy: { type: 'member', id: 'm', name: 'Ada' },
    decidedAt: '',
    ...extras,
  }) as Decision;
const interrupt = (status: Interrupt['status'], decisions: Decision[] = []) =>
  ({ id: 'i1', status, decisions }) as unknown as Interrupt;
const input = { command: 'ls' };
const url = 'http://x/interrupts/i1';

describe('permissionAnswer', () => {
  it('allows only on a decision that approves: as asked, or as edited', () => {
    expect(
      permissionAnswer(interrupt('answered', [decided('approve')]), 'Bash', input, url),
    ).toEqual({ behavior: 'allow', updatedInput: input });
    expect(
      permissionAnswer(
        interrupt('answered', [decided('edit', { editedArgs: { command: 'ls -la' } })]),
        'Bash',
        input,
        url,
      ),
    ).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'ls -la' },
    });
  });

  it('denies a rename, a rejection (with the message, or who), and no decision (open, withdrawn, expired)', () => {
    expect(
      permissionAnswer(
        interrupt('answered', [decided('edit', { editedName: 'Read', editedArgs: {} })]),
        'Bash',
        input,
        url,
      ),
    ).toEqual({
      behavior: 'deny',
      message:
        'Ada asked for Read instead of Bash; a permission prompt cannot switch tools, so Bash was not run.',
    });
    expect(
      permissionAnswer(
        interrupt('answered', [decided('reject', { message: 'No.' })]),
        'Bash',
        input,
        url,
      ),
    ).toEqual({ behavior: 'deny', message: 'No.' });
    expect(
      permissionAnswer(interrupt('answered', [decided('reject')]), 'Bash', input, url),
    ).toEqual({ behavior: 'deny', message: 'Ada did not allow Bash.' });
    expect(permissionAnswer(interrupt('open'), 'Bash', input, url)).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining(url),
    });
    expect(permissionAnswer(interrupt('expired'), 'Bash', input, url)).toEqual({
      behavior: 'deny',
      message: 'The request to allow Bash was expired without a decision; it was not run.',
    });
  });
});
