// Placeholder: filled by the records work of issue 9.
import type { CallImpl, Context } from '../types.ts';

export const handlers: Record<string, CallImpl> = {};

/** Delete every attendance and temperature record (InitMachine). */
export async function clearRecords(_ctx: Context): Promise<void> {}
