// Typed input (SPEC §5): the form for an action's responseSchema, drawn with Mantine's own inputs.
// The schema is a bounded subset (an object of strings, numbers, integers, booleans, enums and
// arrays of those), so each field maps to one input; the answer is checked with the same rules
// the service applies (@interlock/domain's responseProblem) before it is sent.
import { responseProblem, type ResponseField, type ResponseSchema } from '@interlock/domain';
import {
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';

type Value = string | number | boolean | string[] | undefined;

/** A field's starting value: its default, or empty. */
function initial(field: ResponseField): Value {
  if (field.default !== undefined) {
    return field.type === 'array'
      ? (field.default as unknown[]).map(String)
      : (field.default as string | number | boolean);
  }
  if (field.type === 'boolean') return false;
  if (field.type === 'array') return [];
  return undefined;
}

/** The form's values as the response: empty optional fields left out, array items typed. */
function toResponse(
  schema: ResponseSchema,
  values: Record<string, Value>,
): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const response: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = values[name];
    if (value === undefined || value === '') continue;
    if (field.type === 'array') {
      const items = value as string[];
      if (items.length === 0 && !required.has(name)) continue;
      const numeric = field.items?.type === 'integer' || field.items?.type === 'number';
      response[name] = items.map((item) =>
        numeric ? Number(item) : field.items?.type === 'boolean' ? item === 'true' : item,
      );
      continue;
    }
    response[name] = value;
  }
  return response;
}

function FieldInput({
  name,
  field,
  required,
  value,
  onChange,
}: {
  name: string;
  field: ResponseField;
  required: boolean;
  value: Value;
  onChange: (value: Value) => void;
}) {
  const label = field.title ?? name;
  const common = { label, description: field.description, required };
  if (field.type === 'boolean') {
    return (
      <Checkbox
        label={label}
        description={field.description}
        checked={value === true}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  }
  if (field.type === 'array') {
    const options = field.items?.enum?.map(String);
    return options !== undefined ? (
      <MultiSelect
        {...common}
        data={options}
        value={(value as string[]) ?? []}
        onChange={onChange}
        maxValues={field.maxItems}
      />
    ) : (
      <TagsInput
        {...common}
        value={(value as string[]) ?? []}
        onChange={onChange}
        maxTags={field.maxItems}
      />
    );
  }
  if (field.enum !== undefined) {
    const options = field.enum.map(String);
    return (
      <Select
        {...common}
        data={options}
        value={value === undefined ? null : String(value)}
        onChange={(picked) =>
          onChange(picked === null ? undefined : field.type === 'string' ? picked : Number(picked))
        }
        allowDeselect={!required}
      />
    );
  }
  if (field.type === 'integer' || field.type === 'number') {
    return (
      <NumberInput
        {...common}
        value={typeof value === 'number' ? value : ''}
        onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
        min={field.minimum}
        max={field.maximum}
        allowDecimal={field.type === 'number'}
      />
    );
  }
  return (
    <TextInput
      {...common}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={field.maxLength}
    />
  );
}

/** The typed answer to an action with a responseSchema, and an optional note beside it. */
export function ResponseForm({
  actionName,
  schema,
  pending,
  onCancel,
  onSend,
}: {
  actionName: string;
  schema: ResponseSchema;
  pending: boolean;
  onCancel: () => void;
  onSend: (answer: { response: Record<string, unknown>; message?: string }) => void;
}) {
  const [values, setValues] = useState<Record<string, Value>>(() =>
    Object.fromEntries(
      Object.entries(schema.properties).map(([name, field]) => [name, initial(field)]),
    ),
  );
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const required = new Set(schema.required ?? []);
  return (
    <form
      aria-label={`Response to ${actionName}`}
      onSubmit={(event) => {
        event.preventDefault();
        const response = toResponse(schema, values);
        const problem = responseProblem(response, schema);
        if (problem !== null) return setError(problem);
        setError(null);
        onSend({ response, ...(message.trim() === '' ? {} : { message: message.trim() }) });
      }}
    >
      <Stack gap="xs">
        {Object.entries(schema.properties).map(([name, field]) => (
          <FieldInput
            key={name}
            name={name}
            field={field}
            required={required.has(name)}
            value={values[name]}
            onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
          />
        ))}
        <Textarea
          label="Note for the agent (optional)"
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          maxLength={10_000}
          autosize
          minRows={1}
        />
        {error !== null && (
          <div role="alert" style={{ color: 'var(--mantine-color-error)' }}>
            {error}
          </div>
        )}
        <Group gap="xs">
          <Button type="submit" color="grape" loading={pending}>
            Send response
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
