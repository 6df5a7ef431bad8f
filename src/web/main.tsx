// The console's entry point: mounts the app into the page.
import { render } from 'preact';
import { App } from './app.tsx';

render(<App />, document.getElementById('app')!);
