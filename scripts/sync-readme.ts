// Rewrites the settings table in README.md from the config schema.
import fs from 'node:fs';
import { markdownTable } from '../src/config/reference.ts';

const START = '<!-- settings:start -->';
const END = '<!-- settings:end -->';
const readme = fs.readFileSync('README.md', 'utf8');
const [head, rest] = readme.split(START);
if (rest === undefined || !rest.includes(END)) throw new Error(`README.md needs ${START} and ${END} markers`);
fs.writeFileSync('README.md', `${head}${START}\n${markdownTable()}\n${END}${rest.split(END)[1]}`);
