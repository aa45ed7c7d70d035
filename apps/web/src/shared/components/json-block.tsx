import { Code } from '@mantine/core';
import { prettyJson } from '../utils/format';

/**
 * Arguments and metadata, pretty-printed. Long unbroken values wrap; a large payload scrolls
 * inside the block (keyboard-focusable) so what follows it — the decision buttons — stays near.
 */
export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return (
    <Code
      block
      aria-label={label}
      tabIndex={0}
      style={{
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        maxHeight: '24rem',
        overflowY: 'auto',
      }}
    >
      {prettyJson(value)}
    </Code>
  );
}
