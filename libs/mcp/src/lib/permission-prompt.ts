// Claude Code's permission prompt (`--permission-prompt-tool`): what the answered (or still open)
// interrupt says, in the shape Claude Code reads from the tool's text.
import type { Interrupt } from '@interlock/sdk';

/** What Claude Code reads: run the tool with `updatedInput`, or do not, telling the model `message`. */
export type PermissionAnswer =
  | { behavior: 'allow'; updatedInput: Record<string, unknown> }
  | { behavior: 'deny'; message: string };

/**
 * approve → allow with the input as asked; edit → allow with the edited input (a rename cannot be
 * carried: denied, saying so); reject → deny with the member's message; an interrupt still open
 * (nobody decided in time), withdrawn or expired without a decision → deny, saying so and where to
 * decide. Never allows without a person's (or a rule's) approval.
 */
export function permissionAnswer(
  interrupt: Interrupt,
  toolName: string,
  input: Record<string, unknown>,
  url: string,
): PermissionAnswer {
  const decision = interrupt.decisions.find((d) => d.actionName === toolName);
  if (decision === undefined) {
    const why =
      interrupt.status === 'open'
        ? `Nobody in your organisation has decided yet whether to allow ${toolName}; it was not run. The request stays open at ${url}: ask again once someone decided there.`
        : `The request to allow ${toolName} was ${interrupt.status} without a decision; it was not run.`;
    return { behavior: 'deny', message: why };
  }
  switch (decision.decision) {
    case 'approve':
      return { behavior: 'allow', updatedInput: input };
    case 'edit':
      if (
        decision.editedName !== null &&
        decision.editedName !== undefined &&
        decision.editedName !== toolName
      ) {
        return {
          behavior: 'deny',
          message: `${decision.decidedBy.name} asked for ${decision.editedName} instead of ${toolName}; a permission prompt cannot switch tools, so ${toolName} was not run.`,
        };
      }
      return { behavior: 'allow', updatedInput: decision.editedArgs ?? input };
    case 'reject':
      return {
        behavior: 'deny',
        message: decision.message
          ? decision.message
          : `${decision.decidedBy.name} did not allow ${toolName}.`,
      };
    default:
      return {
        behavior: 'deny',
        message: `The decision on ${toolName} was ${decision.decision}; it was not run.`,
      };
  }
}
