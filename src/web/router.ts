// A small history router: the path is the state, links push it, the back button pops it.
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

export function navigate(path: string, replace = false): void {
  if (path === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.scrollTo(0, 0);
  for (const l of listeners) l();
}

/** The current path, re-rendering on navigation. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** For `<a href onClick={follow}>`: a plain click navigates in place; a modified click opens a tab as usual. */
export function follow(event: MouseEvent): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.currentTarget as HTMLElement).closest('a');
  const href = anchor?.getAttribute('href');
  if (href === null || href === undefined || !href.startsWith('/')) return;
  event.preventDefault();
  navigate(href);
}
