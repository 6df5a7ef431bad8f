/**
 * Query strings to typed input: each parameter takes the type its field has in the route's zod schema
 * (repeated for arrays, numbers and booleans parsed), so the schema that validates also documents.
 */
import { z } from 'zod';

type FieldType = 'array' | 'integer' | 'number' | 'boolean' | 'string';

const cache = new WeakMap<z.ZodObject, Map<string, FieldType>>();

/** The JSON type of each field of an object schema, as it is read from a query string. */
export function queryFieldTypes(schema: z.ZodObject): Map<string, FieldType> {
  let types = cache.get(schema);
  if (types === undefined) {
    types = new Map();
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, { type?: string }>;
    };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      const t = prop.type;
      types.set(name, t === 'array' || t === 'integer' || t === 'number' || t === 'boolean' ? t : 'string');
    }
    cache.set(schema, types);
  }
  return types;
}

/**
 * `?scopes=shared&scopes=user:a&limit=5` → `{ scopes: ['shared', 'user:a'], limit: 5 }`. A value that does not
 * parse as its type is passed on as text, so validation names the field; unknown names pass on too, and a
 * strict schema refuses them.
 */
export function readQuery(url: URL, schema: z.ZodObject): Record<string, unknown> {
  const types = queryFieldTypes(schema);
  const out: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    const type = types.get(name) ?? 'string';
    const last = values.at(-1) ?? '';
    if (type === 'array') out[name] = values;
    else if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(last))
      out[name] = Number(last);
    else if (type === 'boolean' && (last === 'true' || last === 'false')) out[name] = last === 'true';
    else out[name] = last;
  }
  return out;
}
