import { Box, Text } from '@mantine/core';
import { diffLines } from 'diff';
import { useMemo } from 'react';
import { prettyJson } from '@/shared/utils/format';
import { inOrderOf } from '@/shared/utils/json-view';
import './args-diff.css';

export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/**
 * The lines of the agent's arguments and of the edited ones, compared line by line as pretty
 * JSON, the edit's keys put in the agent's order first so only real changes show.
 */
export function argsDiffLines(agent: unknown, edited: unknown): DiffLine[] {
  const parts = diffLines(prettyJson(agent), prettyJson(inOrderOf(edited, agent)));
  return parts.flatMap((part) =>
    part.value
      .replace(/\n$/, '')
      .split('\n')
      .map((text) => ({
        kind: part.added ? 'added' : part.removed ? 'removed' : 'same',
        text,
      })),
  );
}

const SIGN = { added: '+', removed: '-', same: ' ' } as const;
const SPOKEN = { added: 'added', removed: 'removed', same: '' } as const;

/**
 * What an edit changes in the agent's arguments: removed lines marked "-", added ones "+", in
 * the agent's key order. Screen readers hear "removed"/"added" before each changed line.
 */
export function ArgsDiff({
  agent,
  edited,
  label,
}: {
  agent: unknown;
  edited: unknown;
  label: string;
}) {
  const lines = useMemo(() => argsDiffLines(agent, edited), [agent, edited]);
  const changed = lines.filter((line) => line.kind !== 'same').length;
  return (
    <Box>
      <Text size="xs" fw={500} mb={4}>
        {label}
        {changed === 0 && ' — no change'}
      </Text>
      {changed > 0 && (
        <pre className="args-diff" role="region" aria-label={label} tabIndex={0}>
          {lines.map((line, index) => (
            <div key={index} className={`args-diff-${line.kind}`} data-diff={line.kind}>
              <span aria-hidden="true">{SIGN[line.kind]} </span>
              {line.kind !== 'same' && (
                <span className="visually-hidden">{SPOKEN[line.kind]}: </span>
              )}
              {line.text}
            </div>
          ))}
        </pre>
      )}
    </Box>
  );
}
