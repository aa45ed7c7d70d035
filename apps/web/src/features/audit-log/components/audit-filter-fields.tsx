import type { ComboboxItemGroup } from '@mantine/core';
import { Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import {
  ACTOR_TYPES,
  CATEGORIES,
  type FILTER_NAMES,
  isoToLocal,
  localToIso,
  TARGET_TYPES,
} from '../api/audit-filters';
import type { AuditFilters } from '../api/audit-log.queries';
import type { TargetSearch } from '../api/audit-names.queries';

export type FilterName = (typeof FILTER_NAMES)[number];
export type SetFilter = (name: FilterName, value: string | null) => void;

interface FieldProps {
  filters: AuditFilters;
  set: SetFilter;
}

const CHOICES = {
  category: { label: 'Category', values: CATEGORIES as string[] },
  actorType: { label: 'Actor type', values: ACTOR_TYPES as string[] },
  targetType: { label: 'Target type', values: TARGET_TYPES as string[] },
};

/** One of the fixed lists (category, actor type, target type); empty means any. */
export function ChoiceFilter({ name, filters, set }: FieldProps & { name: keyof typeof CHOICES }) {
  return (
    <Select
      label={CHOICES[name].label}
      description="Any when empty"
      data={CHOICES[name].values.map((v) => ({ value: v, label: v }))}
      value={filters[name] ?? null}
      onChange={(v) => set(name, v)}
      clearable
    />
  );
}

/** Free text that applies once typing pauses (300 ms). */
export function TextFilter({
  name,
  label,
  description,
  filters,
  set,
}: FieldProps & {
  name: 'q' | 'action' | 'actorId' | 'targetId';
  label: string;
  description: string;
}) {
  const current = filters[name] ?? '';
  const [value, setValue] = useState(current);
  const [typed] = useDebouncedValue(value, 300);
  useEffect(() => {
    if (current !== typed.trim()) set(name, typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      onChange={(e) => setValue(e.currentTarget.value)}
      type={name === 'q' ? 'search' : undefined}
      maxLength={200}
    />
  );
}

/** A bound of the time range, in the reader's time. */
export function TimeFilter({ name, filters, set }: FieldProps & { name: 'from' | 'to' }) {
  return (
    <TextInput
      label={name === 'from' ? 'From' : 'To'}
      description={name === 'from' ? 'Inclusive, your time' : 'Exclusive, your time'}
      type="datetime-local"
      value={isoToLocal(filters[name])}
      onChange={(e) => set(name, localToIso(e.currentTarget.value))}
    />
  );
}

/**
 * The actor or the target, picked by name (members, keys, teams, roles the reader may list),
 * searchable. Where there is nothing to pick from (the type has no names, or the reader may not
 * list them) it is the id field it replaces. An id from the address that is not in the list
 * still shows, as itself.
 */
export function NameFilter({
  name,
  label,
  idDescription,
  choices,
  search,
  filters,
  set,
}: FieldProps & {
  name: 'actorId' | 'targetId';
  label: string;
  idDescription: string;
  choices: ComboboxItemGroup<{ value: string; label: string }>[];
  /**
   * Choices found by what is typed (interrupts by title, sessions by name or id): the picker
   * stays while none are found; `description`, `hint` (placeholder and the empty field's message)
   * and `nothingFound` say how it searches.
   */
  search?: TargetSearch & { value: string; onChange: (value: string) => void };
}) {
  const current = filters[name];
  if (choices.length === 0 && search === undefined)
    return (
      <TextFilter
        name={name}
        label={`${label} id`}
        description={idDescription}
        filters={filters}
        set={set}
      />
    );
  const known = choices.some((g) => g.items.some((i) => i.value === current));
  const data =
    current === undefined || known
      ? choices
      : [...choices, { group: 'From the address', items: [{ value: current, label: current }] }];
  return (
    <Select
      label={label}
      description={search?.description ?? 'Search by name; any when empty'}
      placeholder={search?.hint ?? 'Type a name'}
      data={data}
      value={current ?? null}
      onChange={(v) => set(name, v)}
      searchable
      clearable
      // The API found these by word prefix (case and accents ignored): show them all.
      filter={search === undefined ? undefined : ({ options }) => options}
      searchValue={search?.value}
      onSearchChange={search?.onChange}
      nothingFoundMessage={
        search === undefined
          ? 'Nobody by that name'
          : search.value.trim() === ''
            ? search.hint
            : search.nothingFound
      }
    />
  );
}
