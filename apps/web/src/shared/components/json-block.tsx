import { Code } from '@mantine/core';
import { prettyJson } from '../utils/format';

/** Arguments and metadata, pretty-printed. */
export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return (
    <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {prettyJson(value)}
    </Code>
  );
}
