import { Anchor, Code, Text, Title } from '@mantine/core';
import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

/**
 * Only absolute http(s) links survive; anything else (javascript:, data:, relative paths, mail
 * links) loses its target and reads as plain text.
 */
export function safeHref(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : '';
  } catch {
    return '';
  }
}

/**
 * GitHub's sanitising rules (rehype-sanitize's default schema), stricter: links only http(s), no
 * images (an agent's image would load from wherever it points the moment a reviewer opens the
 * page), no inputs beyond GFM's task-list boxes.
 */
const schema = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, href: ['http', 'https'] },
  tagNames: (defaultSchema.tagNames ?? []).filter((tag) => tag !== 'img' && tag !== 'picture'),
};

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * HTML an agent wrote into its Markdown is shown as the text it is (a reviewer should see that
 * the agent sent `<script>`), never parsed: a remark plugin turns every HTML node into text
 * before anything renders it.
 */
function htmlAsText() {
  const visit = (node: MdNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(visit);
  };
  return visit;
}

type Heading = ComponentProps<'h1'>;
const heading =
  (order: 3 | 4 | 5 | 6) =>
  ({ children }: Heading) => (
    <Title order={order} size="h5" mt="xs">
      {children}
    </Title>
  );

const components: Components = {
  // Headings sit below the page's own (h1) and the action's (h2).
  h1: heading(3),
  h2: heading(4),
  h3: heading(5),
  h4: heading(6),
  h5: heading(6),
  h6: heading(6),
  a: ({ href, children }) => {
    const safe = href === undefined ? '' : safeHref(href);
    if (safe === '') return <span>{children}</span>;
    return (
      <Anchor href={safe} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </Anchor>
    );
  },
  p: ({ children }) => (
    <Text size="sm" my={6}>
      {children}
    </Text>
  ),
  code: ({ children, className }) => <Code className={className}>{children}</Code>,
};

/** Markdown as an agent wrote it, sanitised: the lazily loaded half of <Markdown>. */
export default function MarkdownRenderer({ text }: { text: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm, htmlAsText]}
      rehypePlugins={[[rehypeSanitize, schema]]}
      urlTransform={safeHref}
      components={components}
    >
      {text}
    </ReactMarkdown>
  );
}
