// The names the build's JSX calls (build/bundle.ts injects them where JSX is):
// React's createElement and Fragment, Preact's through the react alias.
export { createElement as __h, Fragment as __F } from 'react';
