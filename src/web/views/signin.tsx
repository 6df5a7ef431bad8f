// Sign-in: paste a human API token; agent and service tokens are refused with a reason.
import { useState } from 'preact/hooks';
import { type SignedIn, signIn } from '../auth.ts';
import { ErrorNote } from '../components.tsx';
import { SIGN_IN_ADMIN_NOTE, SIGN_IN_TOKEN_COMMAND } from '../sign-in-hint.ts';

export function SignInScreen(props: { onSignedIn(s: SignedIn): void; notice?: unknown }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(props.notice ?? null);
  const [busy, setBusy] = useState(false);
  return (
    <main class="signin">
      <form
        aria-label="sign in"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            props.onSignedIn(await signIn(token));
          } catch (err) {
            setError(err);
            setBusy(false);
          }
        }}
      >
        <h1>memledger</h1>
        <p class="muted">
          Review what agents propose, browse memories and their history, and watch the audit.
        </p>
        <label for="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          placeholder="mlk_…"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <p class="hint">
          A human token from <code>{SIGN_IN_TOKEN_COMMAND}</code> ({SIGN_IN_ADMIN_NOTE}). It stays in this tab
          only and is forgotten when the tab closes.
        </p>
        <ErrorNote error={error} />
        <button type="submit" class="primary" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
    </main>
  );
}
