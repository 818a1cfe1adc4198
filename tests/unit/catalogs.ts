// Stand-in for build.ts's virtual:catalogs in unit tests: the compiled
// catalogues themselves (npm test compiles them before the unit tests run).
import type { Messages } from '@lingui/core';

const load = (locale: string) => (): Promise<{ messages: Messages }> => import(`../../locales/${locale}/messages.mjs`);
const catalogs: Record<string, () => Promise<{ messages: Messages }>> = { en: load('en'), es: load('es'), zh: load('zh') };
export default catalogs;
