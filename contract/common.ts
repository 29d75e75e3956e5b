import { z } from 'zod/mini'

/** A record's id (exam, report, member, message, ...) as a path or body field. */
export const IdSchema = z
  .string()
  .check(z.minLength(1, '缺少编号'), z.maxLength(64, '编号格式不正确'))

/** SPEC section 5: a mainland mobile number, 1 then 2-9, 11 digits. */
export const MobileSchema = z
  .string({ error: '请输入手机号' })
  .check(z.regex(/^1[2-9]\d{9}$/, '请输入正确的 11 位手机号'))

/** SMS verification codes are 6 digits (SPEC section 9). */
export const SmsCodeSchema = z
  .string({ error: '请输入验证码' })
  .check(z.regex(/^\d{6}$/, '请输入 6 位数字验证码'))

/** At least 8 characters with both letters and digits; 64 at most so hashing stays bounded. */
export const PasswordSchema = z
  .string({ error: '请输入密码' })
  .check(
    z.minLength(8, '密码至少 8 位，需同时包含字母和数字'),
    z.maxLength(64, '密码最多 64 位'),
    z.regex(/[A-Za-z]/, '密码需同时包含字母和数字'),
    z.regex(/\d/, '密码需同时包含字母和数字'),
  )

export const OkSchema = z.object({ ok: z.literal(true) })

export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number(),
    page: z.number(),
    pageSize: z.number(),
  })
}

export const PageQuerySchema = z.object({
  page: z.optional(z.coerce.number().check(z.int(), z.minimum(1, '页码从 1 开始'))),
  pageSize: z.optional(
    z.coerce.number().check(z.int(), z.minimum(1), z.maximum(50, '每页最多 50 条')),
  ),
})
