// Groups (/advSetting/group): the time groups, as /AccSetting/zoneSetting.
export { default } from './ZoneSetting.tsx';
