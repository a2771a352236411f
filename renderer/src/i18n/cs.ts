/** České texty stanice: joined with the English ones in en.ts (each area in messages/*.ts). */
export { cs } from './en';
