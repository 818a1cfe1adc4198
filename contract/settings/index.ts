// Every settings pair, by area; each area file defines its pairs' fields.
import { ACCESS_PAIRS } from './access.ts';
import { BASIC_PAIRS } from './basic.ts';
import { NETWORK_PAIRS } from './network.ts';

export const SETTINGS_PAIRS = { ...BASIC_PAIRS, ...NETWORK_PAIRS, ...ACCESS_PAIRS };
