// Erase a subject (admins only): preview every version that would go, then type the subject to confirm.
import { useState } from 'preact/hooks';
import { post } from '../api.ts';
import { ErrorNote, Link } from '../components.tsx';
import { plural } from '../format.ts';
import type { ErasePreview, EraseResult } from '../types.ts';
import { MemoryTable } from './memories.tsx';

export function EraseScreen() {
  const [subject, setSubject] = useState('');
  const [preview, setPreview] = useState<ErasePreview | null>(null);
  const [typed, setTyped] = useState('');
  const [result, setResult] = useState<EraseResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const look = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    setTyped('');
    try {
      setPreview(await post<ErasePreview>('/v1/erase/preview', { subject: subject.trim() }));
    } catch (err) {
      setPreview(null);
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const erase = async (e: Event) => {
    e.preventDefault();
    if (preview === null || typed !== preview.subject) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await post<EraseResult>('/v1/erase', { subject: preview.subject }));
      setPreview(null);
      setTyped('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const blocked = preview !== null && preview.blockedScopes.length > 0;

  return (
    <div class="page erase">
      <h2>Erase a subject</h2>
      <p class="muted">
        Erasure removes the content of every memory about a subject, in every version, from the log and the
        search index. It cannot be undone. A tombstone and the audit record remain.
      </p>
      <form class="filters" onSubmit={look} aria-label="erase preview">
        <label class="filter wide">
          <span>Subject</span>
          <input
            type="text"
            name="subject"
            placeholder="person:alice@example.com"
            value={subject}
            onInput={(e) => {
              setSubject(e.currentTarget.value);
              setPreview(null);
            }}
          />
        </label>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || subject.trim() === ''}>
            Preview
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {result !== null && (
        <p class="success" aria-live="polite">
          Erased {plural(result.erased, 'version')} (erasure <code>{result.erasureId}</code>)
          {result.checkpointed
            ? '.'
            : '; the last bytes leave the disk when another process closes the database.'}{' '}
          <Link href="/memories">Search memories</Link>
        </p>
      )}
      {preview !== null && (
        <section class="preview" aria-label="what will be erased">
          <h3>
            {preview.total === 0
              ? `Nothing about ${preview.subject} is left to erase.`
              : `${plural(preview.total, 'version')} will be erased`}
          </h3>
          {preview.hidden > 0 && (
            <p class="warn">
              {plural(preview.hidden, 'version')} lie in scopes you cannot read; they are erased too.
            </p>
          )}
          {blocked && (
            <p class="error">
              You may not write {preview.blockedScopes.join(', ')}: the erasure would be refused. Ask someone
              with a write grant there.
            </p>
          )}
          {preview.memories.length > 0 && (
            <MemoryTable rows={preview.memories.map((memory) => ({ memory }))} />
          )}
          {preview.total > 0 && !blocked && (
            <form class="confirm" onSubmit={erase}>
              <label for="erase-confirm">
                Type <code>{preview.subject}</code> to confirm
              </label>
              <input
                id="erase-confirm"
                type="text"
                autocomplete="off"
                spellcheck={false}
                value={typed}
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
              <button type="submit" class="danger" disabled={busy || typed !== preview.subject}>
                Erase {plural(preview.total, 'version')}
              </button>
            </form>
          )}
        </section>
      )}
    </div>
  );
}
