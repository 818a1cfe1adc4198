// Placeholder: filled by the records / maintenance work of issue 9.
import type { CallImpl } from '../types.ts';

export const handlers: Record<string, CallImpl> = {};
