/**
 * SQL text as the engine needs it outside SQLite: a batch string split into statements, and a statement's shape
 * for the audit with every literal masked (I8). Neither decides what may run: the authorizer does (I16).
 */

interface Token {
  kind: 'word' | 'string' | 'ident' | 'number' | 'blob' | 'param' | 'punct' | 'space' | 'comment';
  text: string;
}

/** A tokenizer that knows SQLite's quoting: '…', "…", `…`, […], X'…', -- and /* comments. */
function tokens(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (kind: Token['kind'], end: number) => {
    out.push({ kind, text: sql.slice(i, end) });
    i = end;
  };
  const quoted = (close: string, from: number): number => {
    let j = from;
    while (j < sql.length) {
      if (sql[j] === close) {
        if (sql[j + 1] === close && close !== ']') j += 2;
        else return j + 1;
      } else j++;
    }
    return sql.length;
  };
  while (i < sql.length) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (/\s/.test(ch)) {
      let j = i;
      while (j < sql.length && /\s/.test(sql[j]!)) j++;
      push('space', j);
    } else if (ch === '-' && next === '-') {
      const j = sql.indexOf('\n', i);
      push('comment', j === -1 ? sql.length : j);
    } else if (ch === '/' && next === '*') {
      const j = sql.indexOf('*/', i + 2);
      push('comment', j === -1 ? sql.length : j + 2);
    } else if ((ch === 'x' || ch === 'X') && next === "'") push('blob', quoted("'", i + 2));
    else if (ch === "'") push('string', quoted("'", i + 1));
    else if (ch === '"' || ch === '`') push('ident', quoted(ch, i + 1));
    else if (ch === '[') push('ident', quoted(']', i + 1));
    else if (/[0-9]/.test(ch) || (ch === '.' && next !== undefined && /[0-9]/.test(next))) {
      const m = /^(0x[0-9a-f]+|[0-9]*\.?[0-9]+(e[+-]?[0-9]+)?)/i.exec(sql.slice(i));
      push('number', i + (m?.[0].length ?? 1));
    } else if (/[A-Za-z_\u0080-\uffff]/.test(ch)) {
      let j = i;
      while (j < sql.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j]!)) j++;
      push('word', j);
    } else if ((ch === ':' || ch === '@' || ch === '$' || ch === '?') && next !== ':') {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      push('param', j);
    } else push('punct', i + 1);
  }
  return out;
}

/**
 * Splits a batch at semicolons outside quotes and comments; a CREATE TRIGGER keeps its BEGIN … END body whole.
 * Empty statements are dropped.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let words: string[] = [];
  let depth = 0;
  for (const t of tokens(sql)) {
    if (t.kind === 'word') {
      const w = t.text.toUpperCase();
      if (words.length < 4) words.push(w);
      const trigger = words[0] === 'CREATE' && words.slice(1, 4).includes('TRIGGER');
      if (trigger && w === 'BEGIN') depth++;
      if (trigger && w === 'END' && depth > 0) depth--;
    }
    if (t.kind === 'punct' && t.text === ';' && depth === 0) {
      if (current.trim() !== '') out.push(current.trim());
      current = '';
      words = [];
      continue;
    }
    current += t.text;
  }
  if (stripComments(current).trim() !== '') out.push(current.trim());
  return out;
}

const stripComments = (sql: string): string =>
  tokens(sql)
    .filter((t) => t.kind !== 'comment')
    .map((t) => t.text)
    .join('');

/**
 * The statement's shape for the audit: keywords, bare names and parameters stay; strings, numbers, blobs and
 * quoted names (which may hold anything) become `?`; comments go; whitespace collapses; cut at `max` characters.
 * @example sqlShape("INSERT INTO t VALUES ('Alice', 42)") // 'INSERT INTO t VALUES (?, ?)'
 */
export function sqlShape(sql: string, max = 200): string {
  let out = '';
  for (const t of tokens(sql)) {
    if (t.kind === 'comment') continue;
    if (t.kind === 'space') out += ' ';
    else if (t.kind === 'string' || t.kind === 'number' || t.kind === 'blob' || t.kind === 'ident')
      out += '?';
    else out += t.text;
  }
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** The bare words of a statement, upper-cased, for the engine's hints (which tables a failed statement named). */
export function wordsOf(sql: string): string[] {
  return tokens(sql)
    .filter((t) => t.kind === 'word' || t.kind === 'ident')
    .map((t) => (t.kind === 'ident' ? t.text.slice(1, -1) : t.text));
}
