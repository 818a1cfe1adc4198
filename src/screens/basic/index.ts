// The basic-setup screens (SPEC §2 Basic setup). Each route file re-exports
// its screen from here, so the group ships as one chunk: smaller than one
// chunk per screen, and one request for the whole group.
export { Device, Display, IdentifyMode, FingerPrint, TimeSetting, Dst, StatusChange, Print, ApplyStatus, WorkMode } from './forms.tsx';
export { SystemInfo } from './info.tsx';
export { WiganPairing } from './pairing.tsx';
export { AuthorizationMode } from './authorization.tsx';
