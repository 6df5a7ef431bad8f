// The console's shell: sign-in, the navigation a principal's roles allow, the live pending count, and the screens.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, setApiToken } from './api.ts';
import { resume, type SignedIn, signOut } from './auth.ts';
import { ErrorNote, Link } from './components.tsx';
import { type LiveState, type Pulse, watchPulses } from './live.ts';
import { navigate, usePath } from './router.ts';
import { AuditScreen } from './views/audit.tsx';
import { CommitmentsScreen } from './views/commitments.tsx';
import { ChainScreen, SummariesScreen } from './views/summaries.tsx';
import { BehaviorsScreen } from './views/behaviors.tsx';
import { EraseScreen } from './views/erase.tsx';
import { MemoriesScreen } from './views/memories.tsx';
import { MemoryScreen } from './views/memory.tsx';
import { ReviewScreen } from './views/review.tsx';
import { SignInScreen } from './views/signin.tsx';
import { WorkspaceScreen, WorkspacesScreen } from './views/workspaces.tsx';

export function App() {
  const [session, setSession] = useState<SignedIn | null | undefined>(undefined);
  const [notice, setNotice] = useState<unknown>(null);
  const [pulse, setPulse] = useState<Pulse | null>(null);
  const [live, setLive] = useState<LiveState>('off');
  const path = usePath();

  useEffect(() => {
    setApiToken(null, (error: ApiError) => {
      // The token stopped working mid-session (revoked): back to sign-in, saying why.
      signOut();
      setNotice(error);
      setSession(null);
    });
    resume()
      .then(setSession)
      .catch((error: unknown) => {
        setNotice(error);
        setSession(null);
      });
  }, []);

  useEffect(() => {
    if (session === null || session === undefined || !session.me.may.review) return;
    return watchPulses(session.token, setPulse, setLive);
  }, [session]);

  useEffect(() => {
    if (session === null || session === undefined) return;
    document.title = pulse !== null && pulse.pending > 0 ? `(${pulse.pending}) memledger` : 'memledger';
  }, [session, pulse]);

  const home = session?.me.may.review ? '/review' : '/memories';
  useEffect(() => {
    if (session !== null && session !== undefined && (path === '/' || path === '/signin'))
      navigate(home, true);
  }, [session, path, home]);

  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) {
    return (
      <SignInScreen
        notice={notice}
        onSignedIn={(s) => {
          setNotice(null);
          setSession(s);
        }}
      />
    );
  }
  const { me } = session;
  const tabs: [string, string, boolean][] = [
    ['/review', 'Review', me.may.review],
    ['/memories', 'Memories', me.may.read],
    ['/commitments', 'Commitments', me.may.read],
    ['/summaries', 'Summaries', me.may.read],
    ['/behaviors', 'Behaviors', me.may.read],
    ['/audit', 'Audit', me.may.audit],
    ['/erase', 'Erase', me.may.erase],
    // Workspaces are for admin humans, as erasure is (src/workspace/admin.ts).
    ['/workspaces', 'Workspaces', me.may.erase],
  ];
  const allowed = tabs.filter(([, , ok]) => ok);

  return (
    <div class="shell">
      <header class="top">
        <Link href={home} class="brand">
          memledger
        </Link>
        <nav aria-label="sections">
          {allowed.map(([href, label]) => (
            <Link key={href} href={href} class={path.startsWith(href) ? 'tab current' : 'tab'}>
              {label}
              {href === '/review' && pulse !== null && (
                <span
                  class={`count ${pulse.pending > 0 ? 'some' : ''}`}
                  data-pending={pulse.pending}
                  title={`live: ${live}`}
                >
                  {pulse.pending}
                  {pulse.more ? '+' : ''}
                </span>
              )}
            </Link>
          ))}
        </nav>
        <div class="who">
          {me.may.review && (
            <span
              class={`live live-${live}`}
              title={`review updates: ${live}`}
              role="img"
              aria-label={`live updates ${live}`}
            />
          )}
          <span class="principal" data-principal={me.principal}>
            {me.principal}
          </span>
          <span class="muted small">{me.roles.join(', ')}</span>
          <button
            type="button"
            class="link"
            onClick={() => {
              signOut();
              // A fresh page: nothing the last principal loaded (results, queue, drafts) stays in memory.
              location.replace('/signin');
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main class="content">{screen(path)}</main>
    </div>
  );

  /** Called, not mounted as a component: a component defined here would remount its screen on every render. */
  function screen(path: string) {
    const p = path.replace(/\/$/, '') || '/';
    const may = me.may;
    const memory = /^\/memories\/(mem_[0-9a-z]{22})$/.exec(p);
    const refused = (what: string, role: string) => (
      <div class="page">
        <ErrorNote
          error={
            new ApiError(403, 'permission', `${me.principal} cannot ${what}: it needs the ${role} role.`)
          }
        />
      </div>
    );
    if (p === '/' || p === '/signin') return null;
    if (p === '/review')
      return may.review ? <ReviewScreen pulse={pulse} /> : refused('review writes', 'reviewer');
    if (p === '/memories')
      return may.read ? <MemoriesScreen who={me.principal} /> : refused('read memories', 'reader');
    if (memory !== null) return <MemoryScreen id={memory[1]!} />;
    if (p === '/commitments')
      return may.read ? (
        <CommitmentsScreen who={me.principal} mayWrite={may.write} />
      ) : (
        refused('read commitments', 'reader')
      );
    const chain = /^\/summaries\/([a-z0-9][a-z0-9._-]{0,63})$/.exec(p);
    if (p === '/summaries' || chain !== null) {
      if (!may.read) return refused('read summary chains', 'reader');
      return chain === null ? <SummariesScreen /> : <ChainScreen name={chain[1]!} />;
    }
    if (p === '/behaviors')
      return may.read ? <BehaviorsScreen admin={may.erase} /> : refused('read behaviors', 'reader');
    if (p === '/audit')
      return may.audit ? <AuditScreen /> : refused('read the audit', 'auditor (or admin, as a person)');
    const workspace = /^\/workspaces\/([^/]+)$/.exec(p);
    if (p === '/workspaces' || workspace !== null) {
      if (!may.erase) return refused('see agent workspaces', 'admin (and be a person)');
      return workspace === null ? (
        <WorkspacesScreen />
      ) : (
        <WorkspaceScreen agent={decodeURIComponent(workspace[1]!)} />
      );
    }
    if (p === '/erase')
      return may.erase ? <EraseScreen /> : refused('erase subjects', 'admin (and be a person)');
    return (
      <div class="page">
        <p>No such page.</p>
      </div>
    );
  }
}
