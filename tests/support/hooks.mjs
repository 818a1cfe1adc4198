// Resolve hooks for the uvu suites: react -> preact/compat and @lingui/core -> its
// stand-in (src/shim/lingui-core.ts) as in build.ts, and
// the build's virtual catalogue module -> the compiled catalogues on disk.
const ALIAS = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
  'use-sync-external-store/shim/index.js': 'preact/compat',
  'virtual:catalogs': new URL('./catalogs.ts', import.meta.url).href,
  '@lingui/core': new URL('../../src/shim/lingui-core.ts', import.meta.url).href,
};

export async function resolve(specifier, context, next) {
  if (Object.prototype.hasOwnProperty.call(ALIAS, specifier)) return next(ALIAS[specifier], context);
  return next(specifier, context);
}
