// An IPv4 address as the contract takes it: a dotted quad, each number 0 to
// 255 without leading zeros. The address fields' pattern (its source), the
// console's form check and the terminal's Host check (build/serving.ts) are
// this one rule. A module of its own, so that the console's bundle takes it
// without the network area's field tables.
export const IPV4 = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;
