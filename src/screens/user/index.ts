// The users group (SPEC §2 User group): its own file, loaded after sign-in
// (src/screens/index.ts), so the login page carries none of it.
export { default as UserList } from './UserList.tsx';
export { AddUser, UserEdit } from './UserForm.tsx';
export { Identify } from './Identify.tsx';
export { Fingerprint } from './Fingerprint.tsx';
