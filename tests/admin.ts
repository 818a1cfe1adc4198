// The administrator every test signs in as: the simulated terminals start
// activated with this password (startSimulator's `activated`). It passes the
// activation rules (not the factory password, no repeated digit, no run, not
// from the serial number), so the same tests run on a real terminal that QA
// activated with it (or CONSOLE_USER / CONSOLE_PASSWORD name its own).
import { SIMULATED_PASSWORD } from '../hil/simulator/activation.ts';

export const TEST_ADMIN = { username: process.env.CONSOLE_USER ?? 'admin', password: process.env.CONSOLE_PASSWORD ?? SIMULATED_PASSWORD } as const;
