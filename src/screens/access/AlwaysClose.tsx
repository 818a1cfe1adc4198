// Always-closed periods (SPEC §2 Access control).
import { Periods } from './Periods.tsx';

export default function AlwaysClose() {
  return <Periods type={0} />;
}
