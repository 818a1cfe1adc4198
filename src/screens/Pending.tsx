// Stands in for screens whose issue has not been built yet, so the menu,
// routes and breadcrumb are complete from the start. Says so plainly.
import { i18n } from '@lingui/core';

export default function Pending() {
  return (
    <section class="panel">
      <p>{i18n._('pending.text')}</p>
    </section>
  );
}
