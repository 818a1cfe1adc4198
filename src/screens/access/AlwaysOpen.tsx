// Always-open periods (SPEC §2 Access control).
import { Periods } from './Periods.tsx';

export default function AlwaysOpen() {
  return <Periods type={1} />;
}
