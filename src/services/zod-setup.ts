import { z } from 'zod/mini'

/**
 * The mini-program forbids eval and `new Function`, which zod uses to speed up object parsing.
 * Jitless parsing is a little slower and works everywhere, so it is on for every platform; importing
 * this module (services/api.ts does) before the first parse is enough.
 */
z.config({ jitless: true })

export const ZOD_JITLESS = true
