import { Badge, Box, Button, Group, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Markdown } from '@/shared/components/markdown';
import { RelativeTime } from '@/shared/components/relative-time';
import type { LiveMessage } from '../api/live-view';

const ROLE_COLOR: Record<LiveMessage['role'], string> = {
  agent: 'blue',
  user: 'grape',
  tool: 'teal',
  system: 'gray',
};

/**
 * The messages, newest at the bottom. It follows new messages while the reader is at the
 * bottom; scrolled up to read, they stay put and a button offers to jump to the latest.
 */
export function MessageLog({
  messages,
  height = 560,
}: {
  messages: LiveMessage[];
  height?: number;
}) {
  const viewport = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);

  useEffect(() => {
    const el = viewport.current;
    if (el && following) el.scrollTop = el.scrollHeight;
  }, [messages, following]);

  return (
    <Box pos="relative">
      <ScrollArea
        h={height}
        viewportRef={viewport}
        onScrollPositionChange={() => {
          const el = viewport.current;
          if (el) setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < 48);
        }}
        type="auto"
      >
        <Stack
          gap="xs"
          p="sm"
          role="log"
          aria-label="Session messages"
          aria-live="polite"
          tabIndex={0}
        >
          {messages.map((m) => (
            <Paper key={m.seq} withBorder p="xs" radius="sm" data-seq={m.seq}>
              <Group gap="xs" mb={4}>
                <Badge size="sm" color={ROLE_COLOR[m.role]} variant="light">
                  {m.role}
                </Badge>
                <Text size="xs" c="dimmed">
                  #{m.seq} · <RelativeTime value={m.createdAt} />
                </Text>
              </Group>
              {m.role === 'tool' ? (
                <Text
                  size="sm"
                  style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                  ff="monospace"
                >
                  {m.content}
                </Text>
              ) : (
                // What the agent, the user or the system said, as sanitised Markdown.
                <Markdown text={m.content} />
              )}
            </Paper>
          ))}
        </Stack>
      </ScrollArea>
      {!following && messages.length > 0 && (
        <Button
          size="xs"
          pos="absolute"
          bottom={12}
          right={24}
          onClick={() => {
            setFollowing(true);
            const el = viewport.current;
            if (el) el.scrollTop = el.scrollHeight;
          }}
        >
          Jump to the latest message
        </Button>
      )}
    </Box>
  );
}
