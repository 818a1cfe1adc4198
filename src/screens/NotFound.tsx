import { Link } from 'wouter';
import { i18n } from '@lingui/core';

export default function NotFound() {
  return (
    <main className="standalone">
      <h1>404</h1>
      <p>{i18n._('notFound.text')}</p>
      <Link href="/" className="button primary">
        {i18n._('notFound.home')}
      </Link>
    </main>
  );
}
