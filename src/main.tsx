// Entry: load the language, then render.
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { useBrowserLocation } from 'wouter/use-browser-location';
import { mayLeave } from './form/unsaved.ts';
import { App } from './shell/App.tsx';
import { startLocale } from './i18n/index.ts';
import { watchViewport } from './state/ui.ts';
import './styles.css';

// index.html's <title> is the brand's already; App adds the screen's title.
watchViewport();
/** Navigation inside the console asks first when a form has unsaved changes. */
function useGuardedLocation(): ReturnType<typeof useBrowserLocation> {
  const [location, navigate] = useBrowserLocation();
  return [location, (to, options) => mayLeave() && navigate(to, options)];
}

startLocale().then(
  () =>
    // React 18+'s root API (React 19 has no render()); preact/compat provides it too.
    createRoot(document.getElementById('app')!).render(
      <Router hook={useGuardedLocation}>
        <App />
      </Router>,
    ),
  () => {
    // Without any catalogue there is nothing to show; say so in plain text.
    document.getElementById('app')!.textContent = 'Network Error';
    setTimeout(() => location.reload(), 1500);
  },
);
