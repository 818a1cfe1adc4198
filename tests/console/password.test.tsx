// SPEC §5 form rules: login and modify password, as functions and in the DOM.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { english } from '../support/helpers.ts';
import { validatePassword } from '../../src/shell/PasswordDialog.tsx';
import { digitsOnly } from '../../src/form/password.ts';
import { validateLogin } from '../../src/screens/Login.tsx';
import { Field } from '../../src/ui/Field.tsx';

test.before(english);

test('login: user name and password are required', () => {
  assert.equal(validateLogin({ username: '', password: '' }), { username: 'login.needUser', password: 'login.needPassword' });
  assert.equal(validateLogin({ username: '   ', password: 'x' }), { username: 'login.needUser' });
  assert.equal(validateLogin({ username: 'admin', password: 'x' }), {});
});

test('modify password: each field required with its own message', () => {
  assert.equal(validatePassword({ oldpwd: '', newpwd: '', confirm: '' }), {
    oldpwd: 'pwd.enterCurrent',
    newpwd: 'pwd.enterNew',
    confirm: 'pwd.enterAgain',
  });
});

test('modify password: new and confirm must match; new must be 6 digits', () => {
  assert.equal(validatePassword({ oldpwd: '1', newpwd: '123456', confirm: '123457' }), { confirm: 'pwd.inconsistent' });
  assert.equal(validatePassword({ oldpwd: '1', newpwd: '12345', confirm: '12345' }), { newpwd: 'err.40202' });
  assert.equal(validatePassword({ oldpwd: '123456', newpwd: '654321', confirm: '654321' }), {});
});

test('modify password: non-digits are stripped and input stops at 6', () => {
  assert.is(digitsOnly('12a3-4 5'), '12345');
  assert.is(digitsOnly('1234567890'), '123456');
  assert.is(digitsOnly('abc'), '');
});

test('a field that normalizes shows exactly the stripped value as typed', () => {
  const root = document.createElement('div');
  document.body.append(root);
  let value = '';
  const draw = () => render(<Field label="New password" value={value} normalize={digitsOnly} onValue={(v) => ((value = v), draw())} />, root);
  draw();
  const input = root.querySelector('input')!;
  const label = root.querySelector('label')!;
  assert.is(label.getAttribute('for'), input.id, 'label is tied to its input');
  input.value = '12x';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  assert.is(value, '12');
  assert.is(input.value, '12');
  input.value = '12a'; // state unchanged: the box must still drop the letter
  input.dispatchEvent(new Event('input', { bubbles: true }));
  assert.is(input.value, '12');
  root.remove();
});

test('a field with an error is marked invalid and described by its message', () => {
  const root = document.createElement('div');
  render(<Field label="User name" value="" error="Please input User Name" />, root);
  const input = root.querySelector('input')!;
  assert.is(input.getAttribute('aria-invalid'), 'true');
  const msg = [...root.querySelectorAll("p")].find((p) => p.id === input.getAttribute("aria-describedby"));
  assert.is(msg?.textContent, 'Please input User Name');
});

test.run();
