import { z } from 'zod/mini'

/**
 * Every response body: `{ code, message, data, error, reason }`. `error` is set only when the call
 * failed; `reason` only when it failed in a way code tells apart (reasons.ts). This server always
 * sends `reason`; a server that predates it leaves it out, which reads as null.
 */
export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.object({
    code: z.number(),
    message: z.string(),
    data,
    error: z.nullable(z.string()),
    reason: z.optional(z.nullable(z.string())),
  })
}

export const ErrorEnvelopeSchema = envelope(z.null())
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>

/** The envelope this server builds (always with `reason`; the schema above also reads older ones). */
export interface Envelope<T> {
  code: number
  message: string
  data: T
  /** For people: the Chinese text the app shows (toasts). Never compared by code. */
  error: string | null
  /** For code: a REASONS value (reasons.ts) when the refusal is one code acts on, else null. */
  reason: string | null
}

/** The stored session: a token object containing access_token (SPEC section 3). */
export const TokenSchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.optional(z.literal('bearer')),
  expires_in: z.optional(z.number()),
  refresh_token: z.optional(z.string()),
})
export type Token = z.infer<typeof TokenSchema>
