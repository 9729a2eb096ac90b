/** `sitectl members approve`: one member, or many through the entity bulk engine (see shared/transitions.ts). */
import { memberTransition } from './shared/transitions.js';

export const { register, run } = memberTransition('approve');
