// Forms generated from the API's own JSON Schemas (read from /openapi.json): a field per property, checked by its schema.
import type { TargetedEvent } from 'preact';

export interface FieldSchema {
  type?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  maxItems?: number;
  items?: FieldSchema;
  description?: string;
  $ref?: string;
}
export interface ObjectSchema {
  properties: Record<string, FieldSchema>;
  required?: string[];
}

type Widget = 'text' | 'textarea' | 'select' | 'lines' | 'json';

let document: Promise<{ components: { schemas: Record<string, ObjectSchema> } }> | undefined;

/** A request body schema by its component name (`ReviewApproveBody`); the document is fetched once. */
export async function loadSchema(name: string): Promise<ObjectSchema> {
  document ??= fetch('/openapi.json', { credentials: 'omit' }).then((r) => {
    if (!r.ok) throw new Error(`/openapi.json answered ${r.status}`);
    return r.json();
  });
  const schema = (await document).components.schemas[name];
  if (schema === undefined) throw new Error(`the API documents no ${name}`);
  return schema;
}

/** Which control a property gets: its enum, its array, its length, and anything else is free JSON. */
export function widgetFor(schema: FieldSchema): Widget {
  if (schema.enum !== undefined) return 'select';
  if (schema.type === 'array') return 'lines';
  if (schema.type === 'string') return (schema.maxLength ?? 0) > 300 ? 'textarea' : 'text';
  return 'json';
}

/** A value as the text its control edits. */
export function toText(schema: FieldSchema, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (widgetFor(schema)) {
    case 'lines':
      return (value as unknown[]).join('\n');
    case 'json':
      return JSON.stringify(value, null, 2);
    default:
      return String(value);
  }
}

/** The text of a control back to a value, checked against the schema; `error` says what is wrong in words. */
export function fromText(schema: FieldSchema, text: string): { value?: unknown; error?: string } {
  const widget = widgetFor(schema);
  if (widget === 'json') {
    if (text.trim() === '') return { value: null };
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { error: 'is not valid JSON' };
    }
  }
  if (widget === 'lines') {
    const items = text
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (schema.maxItems !== undefined && items.length > schema.maxItems)
      return { error: `at most ${schema.maxItems} entries` };
    for (const item of items) {
      const error = checkString(schema.items ?? {}, item);
      if (error !== undefined) return { error: `${JSON.stringify(item)} ${error}` };
    }
    return { value: items };
  }
  if (widget === 'select' && !schema.enum!.includes(text))
    return { error: `must be one of ${schema.enum!.join(', ')}` };
  const error = checkString(schema, text);
  return error === undefined ? { value: text } : { error };
}

function checkString(schema: FieldSchema, text: string): string | undefined {
  if (schema.minLength !== undefined && text.length < schema.minLength)
    return text === '' ? 'must not be empty' : `needs at least ${schema.minLength} characters`;
  if (schema.maxLength !== undefined && text.length > schema.maxLength)
    return `is longer than ${schema.maxLength} characters`;
  if (schema.pattern !== undefined && !patternOf(schema.pattern).test(text))
    return `does not have the expected form (${schema.pattern})`;
  return undefined;
}

/** JSON Schema patterns are ECMAScript regexes; one that only compiles without the `u` flag is still honoured. */
function patternOf(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

const LABELS: Record<string, string> = {
  validFrom: 'Valid from',
  validTo: 'Valid to',
  value: 'Structured value',
};
const HINTS: Record<Widget, string> = {
  text: '',
  textarea: '',
  select: '',
  lines: 'one per line',
  json: 'any JSON; empty for none',
};

export const labelOf = (name: string): string =>
  LABELS[name] ??
  name.charAt(0).toUpperCase() +
    name
      .slice(1)
      .replace(/([A-Z])/g, ' $1')
      .toLowerCase();

export interface SchemaFieldsProps {
  schema: ObjectSchema;
  /** Properties in display order; others in the schema are left out. */
  order: string[];
  values: Record<string, string>;
  errors: Record<string, string>;
  /** Properties whose value differs from the proposal, marked as edited. */
  changed: Set<string>;
  hints?: Record<string, string>;
  idPrefix: string;
  onChange(name: string, text: string): void;
}

export function SchemaFields(props: SchemaFieldsProps) {
  return (
    <>
      {props.order
        .filter((name) => props.schema.properties[name] !== undefined)
        .map((name) => {
          const schema = props.schema.properties[name]!;
          const widget = widgetFor(schema);
          const id = `${props.idPrefix}-${name}`;
          const hint = props.hints?.[name] ?? HINTS[widget];
          const input = (e: TargetedEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
            props.onChange(name, e.currentTarget.value);
          const value = props.values[name] ?? '';
          const common = { id, name, 'data-field': name, 'aria-invalid': props.errors[name] !== undefined };
          return (
            <div class={`field ${props.changed.has(name) ? 'edited' : ''}`} key={name}>
              <label for={id}>
                {labelOf(name)}
                {props.changed.has(name) && <span class="edited-mark">edited</span>}
                {hint !== '' && <span class="hint">{hint}</span>}
              </label>
              {widget === 'select' ? (
                <select {...common} value={value} onInput={input}>
                  {schema.enum!.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              ) : widget === 'text' ? (
                <input {...common} type="text" value={value} onInput={input} spellcheck={false} />
              ) : (
                <textarea
                  {...common}
                  value={value}
                  onInput={input}
                  rows={Math.min(8, Math.max(2, value.split('\n').length + (widget === 'textarea' ? 1 : 0)))}
                  spellcheck={widget === 'textarea'}
                  class={widget === 'json' ? 'mono' : undefined}
                />
              )}
              {props.errors[name] !== undefined && <p class="field-error">{props.errors[name]}</p>}
            </div>
          );
        })}
    </>
  );
}
