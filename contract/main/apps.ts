import { z } from 'zod/mini'
import { PageQuerySchema, pageOf } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * The apps page and what the server switches (issue 10; SPEC section 7, main service "get function,
 * icons, select options", and the update check): which features are on, their icons and order come
 * from the server, so an operator switches one off without a release; the user's points (积分);
 * the dictionaries forms use; the origins a web view may open.
 */

export const AppFeatureSchema = z.object({
  /** Stable key (`articles`, `videos`, `search`, `feedback` …). */
  key: z.string(),
  name: z.string(),
  /** Public icon path (`/media/icons/…`). */
  iconPath: z.string(),
  /** Where a tap goes: a route name of src/routes.ts and its query, or an allowed web page. */
  link: z.union([
    z.object({ route: z.string(), params: z.record(z.string(), z.string()) }),
    z.object({ url: z.string() }),
  ]),
  /** Operators' order, smallest first. */
  order: z.number(),
})
export type AppFeature = z.infer<typeof AppFeatureSchema>

export const listFeatures = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/app/features',
  input: z.object({}),
  /** Only the features switched on, in order ("get function" and "icons" in one call). */
  output: z.array(AppFeatureSchema),
  auth: false,
  summary: '应用功能（开关、图标、顺序由服务端决定）',
})

// ---------------------------------------------------------------------------------------------------
// Points (积分): integers, never negative; every change is a ledger row, the balance their sum.

export const POINT_REASONS = ['read', 'feedbackAdopted', 'signUp', 'operator'] as const
export const PointReasonSchema = z.enum(POINT_REASONS)
export const POINT_REASON_LABELS: Record<z.infer<typeof PointReasonSchema>, string> = {
  read: '阅读文章',
  feedbackAdopted: '反馈被采纳',
  signUp: '注册奖励',
  operator: '运营调整',
}

export const PointEntrySchema = z.object({
  id: z.string(),
  reason: PointReasonSchema,
  reasonLabel: z.string(),
  /** + earned, − spent (integers). */
  delta: z.number(),
  balanceAfter: z.number(),
  at: z.string(),
})

export const getPoints = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/points',
  input: PageQuerySchema,
  output: z.extend(pageOf(PointEntrySchema), { balance: z.number() }),
  auth: true,
  summary: '我的积分和明细',
})

// ---------------------------------------------------------------------------------------------------
// Dictionaries ("select options")

export const OPTION_DICTIONARIES = [
  'gender',
  'relation',
  'feedbackType',
  'articleType',
  /** 擅长方向 (contract/main/experts.ts SPECIALITY_OPTIONS) */
  'speciality',
] as const
export const OptionDictionarySchema = z.enum(OPTION_DICTIONARIES)

export const listOptions = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/app/options',
  input: z.object({ dictionary: OptionDictionarySchema }),
  output: z.array(z.object({ value: z.string(), label: z.string() })),
  auth: false,
  summary: '表单选项字典（性别、关系、反馈类型…）',
})

// ---------------------------------------------------------------------------------------------------
// Web views: only allowed origins open; anything else is refused with a message, never opened.

export const listWebOrigins = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/app/web-origins',
  input: z.object({}),
  /** `https://…` origins an operator allowed (no path, no trailing slash). */
  output: z.array(z.string()),
  auth: false,
  summary: '允许在应用内打开的网页来源',
})

// ---------------------------------------------------------------------------------------------------
// Update check: the mini-program uses its update manager; H5 compares the deployed build.

export const getDeployedBuild = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/app/build',
  input: z.object({}),
  /** The H5 build being served (dist/h5/.build-meta.json's hash), so a page open since can offer 刷新. */
  output: z.object({ h5Build: z.nullable(z.string()), serverVersion: z.string() }),
  auth: false,
  summary: '当前部署版本（H5 发现新版本后提示刷新）',
})
