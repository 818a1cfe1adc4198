// The administrator the test suites sign in as, on every terminal they run
// against. The simulated terminals of the tests and of the bench start
// activated with this password (startSimulator's `activated`); by default it
// is the simulator's own, which the harness's simulated terminal (`npm run hil
// -- --simulate`) is activated with. It passes the activation rules (not the
// factory password, no repeated digit, no run, not from the serial number), so
// the same suites run on a real terminal that QA activated with it (or
// CONSOLE_USER / CONSOLE_PASSWORD name its own).
import { SIMULATED_PASSWORD } from '../simulator/activation.ts';

export const TEST_ADMIN = { username: process.env.CONSOLE_USER ?? 'admin', password: process.env.CONSOLE_PASSWORD ?? SIMULATED_PASSWORD } as const;
