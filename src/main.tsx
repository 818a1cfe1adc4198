// Entry: set the page title from the brand, load the language, then render.
import { render } from 'react-dom';
import { App } from './shell/App.tsx';
import { startLocale } from './i18n/index.ts';
import { watchViewport } from './state/ui.ts';
import { brand } from './brand.ts';
import './styles.css';

document.title = brand.title;
watchViewport();
startLocale().then(
  () => render(<App />, document.getElementById('app')!),
  () => {
    // Without any catalogue there is nothing to show; say so in plain text.
    document.getElementById('app')!.textContent = 'Network Error';
    setTimeout(() => location.reload(), 1500);
  },
);
