// Entry: set the page title from the brand, load the language, then render.
import { render } from 'react-dom';
import { Router } from 'wouter';
import { useBrowserLocation } from 'wouter/use-browser-location';
import { mayLeave } from './form/unsaved.ts';
import { App } from './shell/App.tsx';
import { startLocale } from './i18n/index.ts';
import { watchViewport } from './state/ui.ts';
import { brand } from './brand.ts';
import './styles.css';

document.title = brand.title;
watchViewport();
/** Navigation inside the console asks first when a form has unsaved changes. */
function useGuardedLocation(): ReturnType<typeof useBrowserLocation> {
  const [location, navigate] = useBrowserLocation();
  return [location, (to, options) => mayLeave() && navigate(to, options)];
}

startLocale().then(
  () =>
    render(
      <Router hook={useGuardedLocation}>
        <App />
      </Router>,
      document.getElementById('app')!,
    ),
  () => {
    // Without any catalogue there is nothing to show; say so in plain text.
    document.getElementById('app')!.textContent = 'Network Error';
    setTimeout(() => location.reload(), 1500);
  },
);
