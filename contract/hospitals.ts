import { z } from 'zod/mini'

/**
 * A hospital as the product shows it: every field any answer about a hospital may carry. Answers
 * take the fields they show with `z.pick` (and add their own with `z.extend`), so a field means and
 * reads the same everywhere, and the server fills every answer it reads from a `hospitals` row with
 * one mapping (server/src/domain/hospitals/shape.ts). A bare `HospitalRef` beside a record (an exam's
 * hospital id and name, taken from a join) is built where that record is. Field order is the order
 * answers list them in.
 */
export const HospitalSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** e.g. 三级甲等 */
  level: z.string(),
  province: z.string(),
  city: z.string(),
  address: z.string(),
  /** GB/T 2260 six-digit code (110101) and name of the district; null when not recorded. */
  regionCode: z.nullable(z.string()),
  regionName: z.nullable(z.string()),
  /** Offers AI reporting (marked in the picker). */
  aiReporting: z.boolean(),
  /** Demo data (示例…, 演示数据), never a real hospital. */
  demo: z.boolean(),
  /** GCJ-02, for 导航; null when not entered: search the address. */
  latitude: z.nullable(z.number()),
  longitude: z.nullable(z.number()),
})
export type Hospital = z.infer<typeof HospitalSchema>

/** Name, grade and place: the fields every answer that lists hospitals starts with. */
export const HOSPITAL_CARD = {
  id: true,
  name: true,
  level: true,
  province: true,
  city: true,
  address: true,
} as const

export const HospitalCardSchema = z.pick(HospitalSchema, HOSPITAL_CARD)
export type HospitalCard = z.infer<typeof HospitalCardSchema>

/** The hospital an exam, report or film-bag code belongs to. */
export const HospitalRefSchema = z.pick(HospitalSchema, { id: true, name: true })
export type HospitalRef = z.infer<typeof HospitalRefSchema>
