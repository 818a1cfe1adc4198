// Stand-in for build.ts's virtual:catalogs in the uvu suites: the compiled
// catalogues themselves (npm test's build compiles them before the suites run);
// the whole catalogue counts as core texts here.
import type { Messages } from '@lingui/core';

type Part = () => Promise<{ messages: Messages }>;
const load = (locale: string): { core: Part; screens: Part } => ({
  core: () => import(`../../locales/${locale}/messages.mjs`),
  screens: async () => ({ messages: {} }),
});
const catalogs: Record<string, { core: Part; screens: Part }> = { en: load('en'), es: load('es'), zh: load('zh') };
export default catalogs;
