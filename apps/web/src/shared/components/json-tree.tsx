import { Box, Button, CopyButton, Group, Text, TextInput } from '@mantine/core';
import { type ComponentProps, useDeferredValue, useMemo, useState } from 'react';
import { JsonView } from 'react-json-view-lite';
import { prettyJson } from '../utils/format';
import { hasLongStrings, searchJson, shortenStrings } from '../utils/json-view';
import { JsonBlock } from './json-block';
import './json-tree.css';

/** A payload this long (as JSON text) gets a search box. */
const SEARCHABLE = 400;

/** Class names for react-json-view-lite, drawn by json-tree.css in the page's colour scheme. */
const STYLE: NonNullable<ComponentProps<typeof JsonView>['style']> = {
  container: 'jt-container',
  basicChildStyle: 'jt-item',
  childFieldsContainer: 'jt-children',
  label: 'jt-label',
  clickableLabel: 'jt-label jt-clickable',
  nullValue: 'jt-null',
  undefinedValue: 'jt-null',
  stringValue: 'jt-string',
  booleanValue: 'jt-boolean',
  numberValue: 'jt-number',
  otherValue: 'jt-other',
  punctuation: 'jt-punctuation',
  expandIcon: 'jt-toggle jt-expand',
  collapseIcon: 'jt-toggle jt-collapse',
  collapsedContent: 'jt-collapsed',
  quotesForFieldNames: true,
  stringifyStringValues: true,
  ariaLables: { expandJson: 'Expand', collapseJson: 'Collapse' },
};

/** The first two levels open; while searching, everything that matched. */
const firstLevels = (level: number) => level < 2;
const everything = () => true;

/**
 * A JSON payload (an action's arguments, metadata) as a tree: nested objects and arrays fold,
 * arrow keys move through it (react-json-view-lite's tree role), a large payload can be searched
 * by key or value, strings longer than a few lines are cut until "Show long text in full", and
 * the whole JSON can be copied. The tree scrolls inside its box, so what follows stays near.
 */
export function JsonTree({ value, label }: { value: unknown; label: string }) {
  const [query, setQuery] = useState('');
  const [allText, setAllText] = useState(false);
  const deferredQuery = useDeferredValue(query);
  const text = useMemo(() => prettyJson(value), [value]);
  const long = useMemo(() => hasLongStrings(value), [value]);
  const found = useMemo(() => searchJson(value, deferredQuery), [value, deferredQuery]);
  const shown = useMemo(
    () => (found === undefined || allText ? found?.value : shortenStrings(found.value)),
    [found, allText],
  );

  // Only objects and arrays make a tree; anything else is one line of JSON.
  if (value === null || typeof value !== 'object') return <JsonBlock value={value} label={label} />;

  const searching = deferredQuery.trim() !== '';
  return (
    <Box className="jt-root">
      {(text.length > SEARCHABLE || long) && (
        <Group gap="xs" mb={6} align="flex-end" wrap="wrap">
          {text.length > SEARCHABLE && (
            <TextInput
              size="xs"
              label={`Search ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
              placeholder="Key or value"
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
              style={{ flex: '1 1 12rem' }}
            />
          )}
          {long && (
            <Button size="xs" variant="default" onClick={() => setAllText((all) => !all)}>
              {allText ? 'Shorten long text' : 'Show long text in full'}
            </Button>
          )}
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy JSON'}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
      {searching && (
        <Text size="xs" c="dimmed" mb={4} role="status">
          {found === undefined
            ? `Nothing in ${label.charAt(0).toLowerCase()}${label.slice(1)} matches “${deferredQuery.trim()}”.`
            : `${found.matches} match${found.matches === 1 ? '' : 'es'} for “${deferredQuery.trim()}”.`}
        </Text>
      )}
      {shown !== undefined && (
        <JsonView
          data={shown as object}
          style={STYLE}
          shouldExpandNode={searching ? everything : firstLevels}
          aria-label={label}
        />
      )}
    </Box>
  );
}
