import { Box, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import './markdown.css';

// The renderer (react-markdown, GFM, the sanitiser) is its own chunk, loaded when a page first
// shows Markdown, so the first load of the dashboard does not carry it.
const MarkdownRenderer = lazy(() => import('./markdown-renderer'));

/**
 * Text an agent wrote (a description, a message) rendered as sanitised Markdown: no raw HTML (it
 * shows as text), links only http(s) and opened with rel="noopener noreferrer", no images. Until
 * the renderer has loaded the text shows as it is.
 */
export function Markdown({ text, label }: { text: string; label?: string }) {
  return (
    <Box className="interlock-markdown" aria-label={label} role={label ? 'group' : undefined}>
      <Suspense
        fallback={
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {text}
          </Text>
        }
      >
        <MarkdownRenderer text={text} />
      </Suspense>
    </Box>
  );
}
