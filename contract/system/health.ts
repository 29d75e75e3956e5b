import { z } from 'zod/mini'
import { defineEndpoint } from '../endpoint'

export const HealthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['sqlite', 'postgres']),
  version: z.string(),
  uptimeSeconds: z.number(),
})
export type Health = z.infer<typeof HealthSchema>

export const getHealth = defineEndpoint({
  service: 'system',
  method: 'GET',
  path: '/health',
  input: z.object({}),
  output: HealthSchema,
  auth: false,
  summary: '健康检查',
})
