// One held write in the review queue: where it came from, why it was held, what it would replace, and an edit form.
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, post } from '../api.ts';
import { Badge, Diff, ErrorNote, Link, ProvenanceList, Time, useLoad } from '../components.tsx';
import { jsonText } from '../format.ts';
import { fromText, loadSchema, SchemaFields, toText } from '../schema-form.tsx';
import type { History, Memory, ReviewItem, WriteResult } from '../types.ts';

/** The approve body's fields a reviewer edits, in reading order; `note` goes with the verdict, not the memory. */
const EDITABLE = ['body', 'kind', 'key', 'value', 'subjects', 'validFrom', 'validTo'];

const TIME_HINTS = {
  validFrom: 'true in the world since, e.g. 2025-03-01',
  validTo: 'true until',
};

export interface Verdict {
  memory: Memory;
  result: WriteResult;
  action: 'approved' | 'approved with edits' | 'rejected';
}

/** What the shortcuts a, e and r do to the proposal on screen. */
export interface ProposalKeys {
  approve(): void;
  edit(): void;
  reject(): void;
}

export interface ProposalProps {
  memory: ReviewItem;
  /** Where the proposal on screen puts its shortcut actions for the queue's keyboard handler. */
  keys: { current: ProposalKeys | null };
  onVerdict(verdict: Verdict): void;
}

export function Proposal({ memory, keys, onVerdict }: ProposalProps) {
  const schema = useLoad(() => loadSchema('ReviewApproveBody'), []);
  const context = useLoad(
    async (signal) => {
      const [history, replaced, holder] = await Promise.all([
        api<History>(`/v1/memories/${memory.id}/history`, { signal }),
        memory.supersedes === null
          ? Promise.resolve(null)
          : api<Memory>(`/v1/memories/${memory.supersedes}`, { signal }).catch(() => null),
        memory.key === null
          ? Promise.resolve(null)
          : api<{ memories: Memory[] }>('/v1/memories', {
              query: { scopes: [memory.scope], key: memory.key, limit: 1 },
              signal,
            }).then((r) => r.memories[0] ?? null),
      ]);
      return { history, replaced, holder };
    },
    [memory.id],
  );
  const original = useMemo(() => {
    const values: Record<string, string> = {};
    const props = schema.data?.properties ?? {};
    for (const name of EDITABLE) {
      if (props[name] !== undefined) values[name] = toText(props[name], memory[name as keyof Memory]);
    }
    return values;
  }, [memory, schema.data]);
  // Only what the reviewer typed; everything else shows the proposal. A proposal's form is a fresh instance (keyed).
  const [typed, setTyped] = useState<Record<string, string>>({});
  const values = { ...original, ...typed };
  const [note, setNote] = useState('');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const form = useRef<HTMLFormElement>(null);
  const reasonInput = useRef<HTMLInputElement>(null);

  // Focus the reason as soon as its field exists, before the next keystroke can land elsewhere.
  useLayoutEffect(() => {
    if (rejecting) reasonInput.current?.focus();
  }, [rejecting]);

  const changed = new Set(EDITABLE.filter((n) => original[n] !== undefined && values[n] !== original[n]));
  const errors: Record<string, string> = {};
  const edits: Record<string, unknown> = {};
  for (const name of changed) {
    const field = schema.data?.properties[name];
    if (field === undefined) continue;
    const parsed = fromText(field, values[name] ?? '');
    if (parsed.error !== undefined) errors[name] = `${name} ${parsed.error}`;
    else edits[name] = parsed.value;
  }
  if (changed.has('key') && (values.key ?? '') === '') errors.key = 'a key cannot be removed at review';

  const approve = async () => {
    if (busy || Object.keys(errors).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const body = { ...edits, ...(note.trim() === '' ? {} : { note: note.trim() }) };
      const result = await post<WriteResult>(`/v1/review/${memory.id}/approve`, body);
      onVerdict({ memory, result, action: changed.size > 0 ? 'approved with edits' : 'approved' });
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const reject = async () => {
    if (busy) return;
    if (!rejecting || reason.trim() === '') {
      setRejecting(true);
      reasonInput.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await post<WriteResult>(`/v1/review/${memory.id}/reject`, { reason: reason.trim() });
      onVerdict({ memory, result, action: 'rejected' });
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  // The queue's keyboard handler calls these. Bound in a layout effect, which runs before the browser hands on
  // the next key press, so a shortcut typed the moment a proposal appears reaches that proposal.
  useLayoutEffect(() => {
    keys.current = {
      approve: () => void approve(),
      edit: () => form.current?.querySelector<HTMLElement>('[data-field="body"]')?.focus(),
      reject: () => void reject(),
    };
  });
  useLayoutEffect(
    () => () => {
      keys.current = null;
    },
    [keys],
  );

  const current = context.data?.holder ?? context.data?.replaced ?? null;
  const held = context.data?.history.events.find((e) => e.type === 'held' && e.memoryId === memory.id);
  // Whose field it is now (the queue reads the key's claim); the held event says whose it was when proposed.
  const owner = memory.owner ?? (held?.detail.owner as string | null | undefined) ?? null;
  const moved =
    context.data !== undefined &&
    memory.supersedes !== null &&
    context.data.holder !== null &&
    context.data.holder.id !== memory.supersedes;

  return (
    <article class="proposal" data-id={memory.id} aria-label="proposal">
      <header class="proposal-head">
        <div>
          <Badge of="kind" value={memory.kind} />{' '}
          {memory.key !== null && <code class="key">{memory.key}</code>} <span class="muted">in</span>{' '}
          <code>{memory.scope}</code>
        </div>
        <div class="muted">
          proposed <Time at={memory.recordedAt} relative /> ·{' '}
          <Link href={`/memories/${memory.id}`}>history</Link>
        </div>
      </header>

      <section class="why">
        <span class="rule" data-rule={memory.rule ?? ''}>
          held by rule <strong>{memory.rule ?? 'unknown'}</strong>
        </span>
        {owner !== null && (
          <span class="owner">
            this key belongs to <strong>{owner}</strong>
          </span>
        )}
      </section>

      <div class="columns">
        <section>
          <h3>
            {current === null
              ? 'New memory'
              : changed.size > 0
                ? 'Current → your edit'
                : 'Current → proposed'}
          </h3>
          {current === null ? (
            <p class="muted">Nothing holds this slot now: approving adds a new memory.</p>
          ) : (
            <>
              <p class="muted small">
                replaces <Link href={`/memories/${current.id}`}>{current.id}</Link> by{' '}
                {current.provenance.principal}
                {current.trust === 'confirmed' && ' (confirmed)'}
              </p>
              <Diff before={current.body} after={values.body ?? memory.body} />
              {(current.value !== null || memory.value !== null || changed.has('value')) && (
                <Diff before={jsonText(current.value)} after={values.value ?? jsonText(memory.value)} code />
              )}
            </>
          )}
          {moved && (
            <p class="warn">
              The key changed hands after this proposal: approving as proposed will conflict; edit it to
              replace the current value.
            </p>
          )}
          <h3>Where it came from</h3>
          <ProvenanceList memory={memory} />
        </section>

        <section>
          <h3>Proposal</h3>
          <ErrorNote error={schema.error ?? context.error} />
          {schema.data !== undefined && (
            <form
              ref={form}
              class="proposal-form"
              onSubmit={(e) => {
                e.preventDefault();
                void approve();
              }}
            >
              <div class="field">
                <span class="label">Scope</span>
                <p class="readonly">
                  <code>{memory.scope}</code>{' '}
                  <span class="hint">set by the writer; not editable at review</span>
                </p>
              </div>
              <SchemaFields
                schema={schema.data}
                order={EDITABLE}
                values={values}
                errors={errors}
                changed={changed}
                idPrefix={`p-${memory.id}`}
                hints={TIME_HINTS}
                onChange={(name, text) => setTyped((t) => ({ ...t, [name]: text }))}
              />
              <div class="field">
                <label for={`p-${memory.id}-note`}>
                  Note <span class="hint">optional, kept with the approval</span>
                </label>
                <input
                  id={`p-${memory.id}-note`}
                  type="text"
                  value={note}
                  maxLength={1000}
                  onInput={(e) => setNote(e.currentTarget.value)}
                />
              </div>
              <ErrorNote error={error} />
              <div class="actions">
                <button type="submit" class="primary" disabled={busy || Object.keys(errors).length > 0}>
                  {changed.size > 0 ? 'Approve with edits' : 'Approve as proposed'} <kbd>a</kbd>
                </button>
                {changed.size > 0 && (
                  <button type="button" onClick={() => setTyped({})} disabled={busy}>
                    Undo edits
                  </button>
                )}
                <button type="button" class="danger" onClick={() => void reject()} disabled={busy}>
                  Reject{rejecting ? '' : '…'} <kbd>r</kbd>
                </button>
              </div>
              {rejecting && (
                <div class="field reject-reason">
                  <label for={`p-${memory.id}-reason`}>
                    Why is it wrong? The agent is told, and this claim stays rejected.
                  </label>
                  <input
                    id={`p-${memory.id}-reason`}
                    ref={reasonInput}
                    type="text"
                    value={reason}
                    maxLength={1000}
                    onInput={(e) => setReason(e.currentTarget.value)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        void reject();
                      } else if (e.key === 'Escape') setRejecting(false);
                    }}
                  />
                </div>
              )}
            </form>
          )}
        </section>
      </div>
    </article>
  );
}

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return (
    el !== null &&
    (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable)
  );
}
