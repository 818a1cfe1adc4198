// The device's languages (SPEC §1 codes), each named in its own language:
// the values TimeParam's Language takes, and the names the console's display
// screen offers them by, the same in every console language. A module of its
// own, so that the screen takes it without the basic area's field tables.
export const DEVICE_LANGUAGES = { en: 'English', es: 'Español', el: 'Ελληνικά', it: 'Italiano', pt: 'Português', zh: '中文' } as const;
